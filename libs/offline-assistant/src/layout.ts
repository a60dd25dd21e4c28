// The files every generated app shares: index.html, src/main.tsx, src/site.ts, the header, the
// hero, the footer and App.tsx, which composes them.
import { htmlText, jsxText, str } from './code.js';
import type { Topic } from './copy.js';
import type { AppSpec } from './intent.js';

export const STARTER_INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>Kiln app</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`;

export const MAIN_TSX = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './App';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
`;

const TITLE = /<title>[^<]*<\/title>/;

/** index.html with the app's name as its title (the current file when there is one). */
export function indexHtml(current: string | undefined, name: string, description: string): string {
  let html = current ?? STARTER_INDEX_HTML;
  const title = `<title>${htmlText(name)}</title>`;
  html = TITLE.test(html) ? html.replace(TITLE, () => title) : html.replace(/<\/head>/, () => `    ${title}\n  </head>`);
  const meta = `<meta name="description" content="${htmlText(description)}" />`;
  const existing = /<meta name="description" content="[^"]*" \/>/;
  if (existing.test(html)) html = html.replace(existing, () => meta);
  else html = html.replace(TITLE, (t) => `${t}\n    ${meta}`);
  return html;
}

/**
 * src/main.tsx importing the stylesheet before the app (the current file when there is one), so
 * that components' own styles come after the shared ones and win ties.
 */
export function mainTsx(current: string | undefined): string {
  if (current === undefined) return MAIN_TSX;
  const lines = current.split('\n').filter((line) => !/^import\s+['"]\.\/index\.css['"];?\s*$/.test(line));
  const firstLocal = lines.findIndex((line) => /^import\s.*from\s+['"]\.\.?\//.test(line));
  if (firstLocal === -1) return MAIN_TSX;
  lines.splice(firstLocal, 0, "import './index.css';");
  return lines.join('\n');
}

export function siteTs(spec: AppSpec, topic: Topic): string {
  return `// The app's name and tagline, used by the header, the hero and the footer.
export const site = {
  name: ${str(spec.name)},
  tagline: ${str(topic.tagline)},
};
`;
}

export interface NavLink {
  readonly href: string;
  readonly label: string;
}

export function headerTsx(links: readonly NavLink[], cta: { label: string; href: string } | null): string {
  return `import { site } from '../site';

const links: { href: string; label: string }[] = [
${links.map((l) => `  { href: ${str(l.href)}, label: ${str(l.label)} },`).join('\n')}
];

export function Header() {
  return (
    <header className="site-header">
      <div className="wrap header-inner">
        <a className="brand" href="#top">
          <span className="brand-mark" aria-hidden="true">
            {site.name.charAt(0)}
          </span>
          {site.name}
        </a>
        <nav className="nav" aria-label="Main">
          {links.map((link) => (
            <a key={link.href} href={link.href}>
              {link.label}
            </a>
          ))}
        </nav>${
          cta
            ? `
        <a className="btn btn-primary btn-small" href=${JSON.stringify(cta.href)}>
          ${jsxText(cta.label)}
        </a>`
            : ''
        }
      </div>
    </header>
  );
}
`;
}

export function footerTsx(): string {
  return `import { site } from '../site';

export function Footer() {
  return (
    <footer className="site-footer">
      <div className="wrap footer-inner">
        <span>
          © {new Date().getFullYear()} {site.name}
        </span>
        <span>{site.tagline}</span>
      </div>
    </footer>
  );
}
`;
}

export function heroTsx(variant: 'landing' | 'compact', topic: Pick<Topic, 'headline' | 'lead' | 'cta'>, primaryHref: string, secondaryHref: string): string {
  if (variant === 'compact') {
    return `import { site } from '../site';

export function Hero() {
  return (
    <section className="hero hero-compact">
      <div className="wrap">
        <h1>{site.name}</h1>
        <p className="lead">{site.tagline}</p>
      </div>
    </section>
  );
}
`;
  }
  return `import { site } from '../site';

export function Hero() {
  return (
    <section className="hero">
      <div className="wrap">
        <span className="eyebrow">{site.tagline}</span>
        <h1>${jsxText(topic.headline)}</h1>
        <p className="lead">${jsxText(topic.lead)}</p>
        <div className="hero-actions">
          <a className="btn btn-primary" href=${JSON.stringify(primaryHref)}>
            ${jsxText(topic.cta)}
          </a>
          <a className="btn btn-ghost" href=${JSON.stringify(secondaryHref)}>
            Learn more
          </a>
        </div>
      </div>
    </section>
  );
}
`;
}

export interface Composition {
  /** Components in <main>, in order. */
  readonly main: readonly { name: string; path: string }[];
}

function importLine(component: { name: string; path: string }): string {
  const from = `./${component.path.replace(/^src\//, '').replace(/\.tsx?$/, '')}`;
  return `import { ${component.name} } from ${str(from)};`;
}

/** App.tsx; `exportName` is 'HomePage' once pages exist (src/routes.tsx renders it at '/'). */
export function appTsx(composition: Composition, exportName = 'App'): string {
  const header = { name: 'Header', path: 'src/components/Header.tsx' };
  const footer = { name: 'Footer', path: 'src/components/Footer.tsx' };
  const imports = [header, ...composition.main, footer].map(importLine).join('\n');
  return `${imports}

export function ${exportName}() {
  return (
    <div className="app" id="top">
      <Header />
      <main>
${composition.main.map((c) => `        <${c.name} />`).join('\n')}
      </main>
      <Footer />
    </div>
  );
}
`;
}
