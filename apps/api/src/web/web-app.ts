import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/** Where the built web app lives, relative to the repository root. */
export const WEB_DIST_RELATIVE = path.join('apps', 'web', 'dist');

/**
 * The directory of the built web app (the one holding index.html), or null when there is none.
 * WEB_DIST_DIR (resolved against the working directory) wins; otherwise apps/web/dist is looked
 * for from the working directory upwards, so `npm start` at the root and `node dist/main.js`
 * in apps/api both find it.
 */
export function resolveWebDistDir(configured: string | null, cwd: string, exists: (file: string) => boolean = existsSync): string | null {
  if (configured !== null) {
    const dir = path.resolve(cwd, configured);
    return exists(path.join(dir, 'index.html')) ? dir : null;
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, WEB_DIST_RELATIVE);
    if (exists(path.join(candidate, 'index.html'))) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Paths that belong to the API (including the local test checkout's own pages): never answered with the web app. */
const API_PREFIXES = ['/api', '/auth/v1', '/health', '/local-checkout', '/database'];

export function isApiPath(pathname: string): boolean {
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/**
 * Should this request get the single-page app's index.html? GET/HEAD page loads (the browser
 * asks for text/html) outside the API's paths. API clients asking for an unknown path keep
 * getting the JSON 404.
 */
export function wantsSpaFallback(method: string, pathname: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (isApiPath(pathname)) return false;
  return (accept ?? '').includes('text/html');
}

/** sha256 sources of the inline <script> blocks of index.html (the color-mode snippet), for the CSP. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc\s*=/i.test(attributes)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2] ?? '', 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** Where an analytics script is loaded from and sends to (none without GA4). */
export interface AnalyticsSources {
  readonly script: readonly string[];
  readonly connect: readonly string[];
}
export const NO_ANALYTICS_SOURCES: AnalyticsSources = { script: [], connect: [] };

/**
 * GA4_MEASUREMENT_ID set: the Google tag's hosts (Google's CSP guide for GA4: the tag from
 * *.googletagmanager.com, hits to *.google-analytics.com and *.analytics.google.com), or the
 * one GA4_SCRIPT_ORIGIN that stands in for them.
 */
export function analyticsSources(ga4: { readonly scriptOrigin: string } | null, googleOrigin: string): AnalyticsSources {
  if (ga4 === null) return NO_ANALYTICS_SOURCES;
  if (ga4.scriptOrigin !== googleOrigin) return { script: [ga4.scriptOrigin], connect: [ga4.scriptOrigin] };
  return {
    script: ['https://*.googletagmanager.com'],
    connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
  };
}

/**
 * The Content-Security-Policy of the web app's pages: helmet's defaults plus the inline scripts,
 * and the project previews and published sites (their own origins, e.g. `http://*.preview.localhost:3000
 * http://*.apps.localhost:3000`) as frames, and the GA4 tag when configured.
 */
export function webAppCsp(scriptHashes: readonly string[], previewFrameSource: string | null = null, analytics: AnalyticsSources = NO_ANALYTICS_SOURCES): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    ["connect-src 'self'", ...analytics.connect].join(' '),
    "font-src 'self' https: data:",
    "form-action 'self'",
    "frame-ancestors 'self'",
    previewFrameSource === null ? "frame-src 'self'" : `frame-src 'self' ${previewFrameSource}`,
    // blob: the composer's thumbnails of files about to be attached (object URLs the page made itself).
    "img-src 'self' data: blob: https:",
    "object-src 'none'",
    ["script-src 'self'", ...analytics.script, ...scriptHashes].join(' '),
    "script-src-attr 'none'",
    "style-src 'self' https: 'unsafe-inline'",
  ].join('; ');
}

/**
 * Serves the built web app from the API's origin (one origin: no CORS, one port): hashed
 * assets with a year of caching, anything else as is, and index.html for page loads of any
 * other path (client-side routing).
 */
export function serveWebApp(app: NestExpressApplication, dir: string, previewFrameSource: string | null = null, analytics: AnalyticsSources = NO_ANALYTICS_SOURCES): void {
  const indexFile = path.join(dir, 'index.html');
  const csp = webAppCsp(inlineScriptHashes(readFileSync(indexFile, 'utf8')), previewFrameSource, analytics);
  app.useStaticAssets(dir, {
    index: false,
    setHeaders: (res, file) => {
      if (path.relative(dir, file).startsWith(`assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      else res.setHeader('Cache-Control', 'no-cache');
    },
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!wantsSpaFallback(req.method, req.path, req.headers.accept)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', csp);
    res.sendFile(indexFile, (error) => {
      if (error && !res.headersSent) next(error);
    });
  });
}
