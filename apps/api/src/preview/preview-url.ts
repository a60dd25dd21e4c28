/**
 * The live preview's addresses (docs/sandbox-api.md "Live preview"): PREVIEW_URL_TEMPLATE gives
 * every project its own origin, `{id}` being the project id and `{port}` the API's port. Pure:
 * config.ts validates the template with it at start, the proxy matches Host headers with it.
 */

/** Default: browsers resolve `*.localhost` to loopback, so no DNS set-up is needed locally. */
export const DEFAULT_PREVIEW_URL_TEMPLATE = 'http://{id}.preview.localhost:{port}';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A validated template: how to build a project's preview origin and how to recognise one. */
export interface PreviewUrls {
  /** The template with `{port}` filled in, e.g. 'http://{id}.preview.localhost:3000'. */
  readonly template: string;
  /** 'http:' or 'https:'. */
  readonly protocol: string;
  /** The preview origin of a project ('http://<id>.preview.localhost:3000'). */
  originFor(projectId: string): string;
  /**
   * A CSP source matching every preview origin ('http://*.preview.localhost:3000'): the web
   * app's `frame-src` must allow it, or the builder cannot show the preview.
   */
  readonly frameSource: string;
  /**
   * What a request's Host header names: not a preview host (the normal app), a preview host
   * for a project id (lower-case UUID), or a preview host whose id is not a UUID. The port is
   * not compared: behind a proxy the public port differs from the API's.
   */
  match(host: string | undefined): PreviewHostMatch;
}

export type PreviewHostMatch =
  | { readonly kind: 'app' }
  | { readonly kind: 'preview'; readonly projectId: string }
  | { readonly kind: 'invalid-preview' };

/**
 * Validates PREVIEW_URL_TEMPLATE: http or https, `{id}` exactly once as a whole label of the
 * host name, `{port}` only as the port, no credentials, path, query or fragment. An http
 * template must be under `.localhost`: browsers keep the preview's Secure cookie only on secure
 * origins, and `*.localhost` counts as one. Returns the problem text or the parsed template.
 */
export function parsePreviewUrlTemplate(raw: string, apiPort: number): { ok: true; value: PreviewUrls } | { ok: false; problem: string } {
  const fail = (why: string) => ({ ok: false as const, problem: `PREVIEW_URL_TEMPLATE ${why}, got "${raw}"` });
  const template = raw.trim();
  if (template.split('{id}').length !== 2) return fail('must contain {id} exactly once');
  if (template.includes('{port}') && !/:\{port\}\/?$/.test(template)) return fail('may use {port} only as the port (…:{port})');
  const filled = template.replace('{port}', String(apiPort));
  let sample: URL;
  try {
    sample = new URL(filled.replace('{id}', SAMPLE_ID));
  } catch {
    return fail('must be an http:// or https:// URL such as http://{id}.preview.localhost:{port}');
  }
  if (sample.protocol !== 'http:' && sample.protocol !== 'https:') return fail('must be an http:// or https:// URL');
  if (sample.username !== '' || sample.password !== '') return fail('must not contain credentials');
  if (sample.pathname !== '/' || sample.search !== '' || sample.hash !== '') return fail('must be an origin (no path, query or fragment)');
  const labels = sample.hostname.split('.');
  const idIndex = labels.indexOf(SAMPLE_ID);
  if (idIndex < 0 || idIndex === labels.length - 1) return fail('must have {id} as a whole label of the host name, before its domain ({id}.preview.example.com)');
  if (labels.length < 2 || labels.some((label, i) => i !== idIndex && !LABEL.test(label))) return fail('must have a valid host name');
  if (sample.protocol === 'http:' && labels.at(-1) !== 'localhost') {
    return fail('must be https:// unless the host is under .localhost (the preview cookie is Secure)');
  }
  const base = filled.replace(/\/$/, '');
  const before = labels.slice(0, idIndex).join('.');
  const after = labels.slice(idIndex + 1).join('.');
  // Any name in the preview's place (even 'a.b') is a preview host, so the Kiln app is never served there.
  const pattern = new RegExp(`^${before ? `${escape(before)}\\.` : ''}(.+)\\.${escape(after)}$`);
  return {
    ok: true,
    value: {
      template: base,
      protocol: sample.protocol,
      frameSource: `${sample.protocol}//*.${after}${sample.port === '' ? '' : `:${sample.port}`}`,
      originFor: (projectId) => new URL(base.replace('{id}', projectId.toLowerCase())).origin,
      match: (host) => {
        const hostname = hostnameOf(host);
        if (hostname === null) return { kind: 'app' };
        const found = pattern.exec(hostname);
        if (found === null) return { kind: 'app' };
        const id = found[1] ?? '';
        return UUID.test(id) ? { kind: 'preview', projectId: id } : { kind: 'invalid-preview' };
      },
    },
  };
}

/** The lower-case host name of a Host header value, without port or trailing dot; null when malformed. */
export function hostnameOf(host: string | undefined): string | null {
  if (host === undefined || host === '' || host.length > 300) return null;
  const match = /^([^:[\]\s/@]+)(?::\d{1,5})?$/.exec(host.trim());
  if (match === null) return null;
  return (match[1] ?? '').toLowerCase().replace(/\.$/, '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
