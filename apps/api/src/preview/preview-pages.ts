import { createHash } from 'node:crypto';

/** A page the preview answers itself (not the project's app). */
export interface PreviewPage {
  readonly status: number;
  readonly html: string;
  /** Extra response headers (Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A `script-src` source for the page's one inline script, when it has one. */
  readonly scriptSource?: string;
}

const STYLE = `
  :root { color-scheme: light dark; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { max-width: 28rem; padding: 2rem; text-align: center; }
  h1 { font-size: 1.125rem; font-weight: 600; margin: 0 0 .5rem; }
  p { margin: 0; opacity: .75; line-height: 1.5; }
  .spinner { width: 1.5rem; height: 1.5rem; margin: 0 auto 1rem; border-radius: 50%;
    border: 3px solid color-mix(in srgb, CanvasText 20%, transparent); border-top-color: CanvasText;
    animation: spin .8s linear infinite; }
  @keyframes spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, head = '', script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${head}<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script ? `<script>${script}</script>\n` : ''}</body>
</html>
`;
}

/** 503 while the dev server starts: reloads itself every second (Retry-After: 1). */
export function startingPage(message: string): PreviewPage {
  return {
    status: 503,
    headers: { 'Retry-After': '1' },
    html: page(
      'Starting your app…',
      `<div class="spinner" role="progressbar" aria-label="Starting"></div>
<h1>Starting your app…</h1>
<p>${escapeHtml(message)}</p>`,
      '<meta http-equiv="refresh" content="1">\n',
    ),
  };
}

/** 502 when the dev server failed to start (the builder shows the reason and offers restart-dev). */
export function failedPage(message: string): PreviewPage {
  return {
    status: 502,
    html: page(
      'Your app could not start',
      `<h1>Your app could not start</h1>
<p>${escapeHtml(message)}</p>
<p>Fix the error or restart the preview from the builder.</p>`,
    ),
  };
}

/** 404 for a project without a sandbox, or a preview address that names no project. */
export function notFoundPage(): PreviewPage {
  return {
    status: 404,
    html: page('No preview here', `<h1>No preview here</h1>\n<p>This project has no running app. Open it in the Kiln builder.</p>`),
  };
}

/**
 * 401 without a valid preview cookie. Tells a framing Kiln builder (and only Kiln: the message
 * is posted with each Kiln origin as its target) that the preview needs a fresh address.
 */
export function unauthorizedPage(appOrigins: readonly string[]): PreviewPage {
  const script = `(function(){try{var o=${JSON.stringify(appOrigins).replace(/</g, '\\u003c')};for(var i=0;i<o.length;i++){try{window.parent.postMessage({source:'kiln-preview',type:'auth-required'},o[i]);}catch(e){}}}catch(e){}})();`;
  return {
    status: 401,
    html: page(
      'Open this preview from Kiln',
      `<h1>Open this preview from Kiln</h1>\n<p>This preview link has expired or is not yours. Open the project in the Kiln builder to see it.</p>`,
      '',
      script,
    ),
    scriptSource: `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  };
}

/** 400 for a request the preview cannot serve (a request target that is not a path). */
export function badRequestPage(): PreviewPage {
  return { status: 400, html: page('Bad request', '<h1>Bad request</h1>') };
}

/** 403 for a state-changing request from another origin. */
export function forbiddenPage(): PreviewPage {
  return { status: 403, html: page('Forbidden', '<h1>Forbidden</h1>\n<p>Requests from other sites are not accepted by this preview.</p>') };
}
