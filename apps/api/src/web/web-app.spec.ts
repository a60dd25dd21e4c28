import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { analyticsSources, inlineScriptHashes, isApiPath, resolveWebDistDir, wantsSpaFallback, webAppCsp } from './web-app.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('resolveWebDistDir', () => {
  const files = new Set([path.resolve('/repo/apps/web/dist/index.html'), path.resolve('/srv/web/index.html')]);
  const exists = (file: string) => files.has(path.resolve(file));

  it('finds apps/web/dist from the repository root or any folder below it', () => {
    expect(resolveWebDistDir(null, '/repo', exists)).toBe(path.resolve('/repo/apps/web/dist'));
    expect(resolveWebDistDir(null, '/repo/apps/api', exists)).toBe(path.resolve('/repo/apps/web/dist'));
  });

  it('uses WEB_DIST_DIR (relative to the working directory) when set', () => {
    expect(resolveWebDistDir('/srv/web', '/repo', exists)).toBe(path.resolve('/srv/web'));
    expect(resolveWebDistDir('../srv/web', '/repo', exists)).toBe(path.resolve('/srv/web'));
  });

  it('is null when there is no built app', () => {
    expect(resolveWebDistDir(null, '/elsewhere', exists)).toBeNull();
    expect(resolveWebDistDir('/srv/missing', '/repo', exists)).toBeNull();
  });
});

describe('wantsSpaFallback', () => {
  it.each(['/', '/settings', '/get-started', '/auth/callback', '/legal/privacy-policy', '/no/such/page'])('serves the app for a page load of %s', (p) => {
    expect(wantsSpaFallback('GET', p, HTML)).toBe(true);
    expect(wantsSpaFallback('HEAD', p, HTML)).toBe(true);
  });

  it.each(['/api', '/api/profile', '/api/docs', '/auth/v1/user', '/health', '/database/0b6c3f0e-0000-4000-8000-000000000000'])('leaves %s to the API', (p) => {
    expect(isApiPath(p)).toBe(true);
    expect(wantsSpaFallback('GET', p, HTML)).toBe(false);
  });

  it('leaves other methods and non-HTML requests to the API (JSON 404)', () => {
    expect(wantsSpaFallback('POST', '/settings', HTML)).toBe(false);
    expect(wantsSpaFallback('GET', '/nope', undefined)).toBe(false);
    expect(wantsSpaFallback('GET', '/nope', 'application/json')).toBe(false);
  });

  it('does not treat look-alike prefixes as API paths', () => {
    expect(isApiPath('/apix')).toBe(false);
    expect(isApiPath('/healthy')).toBe(false);
    expect(isApiPath('/auth/callback')).toBe(false);
  });
});

describe('CSP of the app pages', () => {
  it('allows exactly the inline scripts of index.html by hash', () => {
    const snippet = "(function(){document.documentElement.classList.toggle('dark',true)})();";
    const html = `<html><head><script>${snippet}</script><script type="module" src="/assets/index.js"></script></head></html>`;
    const expected = `'sha256-${createHash('sha256').update(snippet).digest('base64')}'`;

    expect(inlineScriptHashes(html)).toEqual([expected]);
    expect(webAppCsp([expected])).toContain(`script-src 'self' ${expected}`);
    expect(webAppCsp([])).toContain("object-src 'none'");
  });

  it('lets the builder frame project previews, and nothing else from other origins', () => {
    expect(webAppCsp([], 'http://*.preview.localhost:3000')).toContain("frame-src 'self' http://*.preview.localhost:3000;");
    expect(webAppCsp([])).toContain("frame-src 'self';");
  });

  it('allows the GA4 tag and its hits only when GA4 is configured (Google’s hosts, or the configured stand-in)', () => {
    const google = 'https://www.googletagmanager.com';
    expect(webAppCsp([], null, analyticsSources(null, google))).toContain("script-src 'self';");
    expect(webAppCsp([], null, analyticsSources(null, google))).toContain("connect-src 'self';");
    const withGoogle = webAppCsp([], null, analyticsSources({ scriptOrigin: google }, google));
    expect(withGoogle).toContain("script-src 'self' https://*.googletagmanager.com;");
    expect(withGoogle).toContain("connect-src 'self' https://*.google-analytics.com https://*.analytics.google.com https://*.googletagmanager.com;");
    const withFake = webAppCsp([], null, analyticsSources({ scriptOrigin: 'http://127.0.0.1:3323' }, google));
    expect(withFake).toContain("script-src 'self' http://127.0.0.1:3323;");
    expect(withFake).toContain("connect-src 'self' http://127.0.0.1:3323;");
  });
});

describe('WEB_DIST_DIR', () => {
  it('is read by loadConfig (blank → null: look for apps/web/dist)', async () => {
    const { loadConfig } = await import('../config.js');
    expect(loadConfig({}).webDistDir).toBeNull();
    expect(loadConfig({ WEB_DIST_DIR: '  ' }).webDistDir).toBeNull();
    expect(loadConfig({ WEB_DIST_DIR: ' /srv/kiln-web ' }).webDistDir).toBe('/srv/kiln-web');
  });
});
