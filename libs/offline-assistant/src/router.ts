// A dependency-free hash router for generated apps: pages live at #/path, so no server rewrite
// and no package install are needed. Section links (#faq) keep working on the home page.
import { jsxText, str } from './code.js';

export const ROUTER_TSX = `import { useEffect, useState, type ReactNode } from 'react';

/** The current route: the part of the hash after '#', '/' when the hash is empty or a section id. */
export function currentPath(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return hash.startsWith('/') ? hash : '/';
}

export function useRoute(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const update = () => {
      setPath(currentPath());
      if (window.location.hash.startsWith('#/')) window.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return path;
}

export function Link({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  const active = currentPath() === to;
  return (
    <a href={'#' + to} className={className} aria-current={active ? 'page' : undefined}>
      {children}
    </a>
  );
}
`;

export const ROUTES_CSS = `.route-bar {
  border-bottom: 1px solid var(--border, #e2e8f0);
  background: var(--card, #fff);
}

.route-bar-inner {
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 1rem;
  flex-wrap: wrap;
  min-height: 56px;
  width: min(1120px, 100% - 2.5rem);
  margin-inline: auto;
}

.route-brand {
  font-weight: 700;
  color: inherit;
  text-decoration: none;
}

.route-links {
  display: flex;
  gap: 0.25rem;
  flex-wrap: wrap;
}

.route-links a {
  padding: 0.35rem 0.75rem;
  border-radius: 999px;
  color: inherit;
  text-decoration: none;
  opacity: 0.75;
}

.route-links a[aria-current='page'] {
  opacity: 1;
  font-weight: 600;
  background: color-mix(in srgb, var(--primary, #4f46e5) 12%, transparent);
}

.page {
  padding: clamp(2rem, 6vw, 4rem) 0;
}

.not-found {
  text-align: center;
  padding: 4rem 1rem;
}
`;

export interface RouteEntry {
  readonly path: string;
  readonly label: string;
  readonly component: string;
  readonly from: string;
}

export function routeLine(route: RouteEntry): string {
  return `  { path: ${str(route.path)}, label: ${str(route.label)}, component: ${route.component} },`;
}

export function routeImport(route: RouteEntry): string {
  return `import { ${route.component} } from ${str(route.from)};`;
}

/**
 * src/routes.tsx: the route table and the App that picks a page by the hash. When the home page
 * has the app's own header (`homeHasHeader`), every page shows that header (and the footer, when
 * the home page has one), so a new page keeps the app's layout; otherwise a route bar.
 */
export function routesTsx(appName: string, routes: readonly RouteEntry[], homeHasHeader: boolean, homeHasFooter = false): string {
  const layout = homeHasHeader
    ? `  const Page = route.component;
  if (route.path === '/') return <Page />;
  return (
    <div className="app" id="top">
      <Header />
      <Page />${homeHasFooter ? '\n      <Footer />' : ''}
    </div>
  );`
    : `  const Page = route.component;
  return (
    <>
      <RouteBar />
      <Page />
    </>
  );`;
  const shared = homeHasHeader ? [`import { Header } from './components/Header';`, ...(homeHasFooter ? [`import { Footer } from './components/Footer';`] : [])] : [];
  return `import type { ComponentType } from 'react';
${routes.map(routeImport).join('\n')}
${shared.map((line) => `${line}\n`).join('')}import { Link, useRoute } from './router';
import './routes.css';

interface Route {
  path: string;
  label: string;
  component: ComponentType;
}

export const routes: Route[] = [
${routes.map(routeLine).join('\n')}
];

function RouteBar() {
  return (
    <nav className="route-bar" aria-label="Pages">
      <div className="route-bar-inner">
        <a className="route-brand" href="#/">
          ${jsxText(appName)}
        </a>
        <div className="route-links">
          {routes.map((route) => (
            <Link key={route.path} to={route.path}>
              {route.label}
            </Link>
          ))}
        </div>
      </div>
    </nav>
  );
}

export function App() {
  const path = useRoute();
  const route = routes.find((r) => r.path === path);
  if (!route) {
    return (
      <>
        <RouteBar />
        <main className="not-found">
          <h1>Page not found</h1>
          <p>
            There is no page at {path}. <a href="#/">Go home</a>
          </p>
        </main>
      </>
    );
  }
${layout}
}
`;
}
