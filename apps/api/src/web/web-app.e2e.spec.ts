import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InMemoryPersistenceModule } from '../testing/in-memory-persistence.module.js';
import { type TestApp, startTestApp } from '../testing/e2e.js';

const HTML = 'text/html,application/xhtml+xml';
const INDEX = '<!doctype html><html><head><script>window.x=1</script></head><body><div id="root"></div></body></html>';

describe('the web app on the API origin', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kiln-web-dist-'));
    await mkdir(path.join(dir, 'assets'));
    await writeFile(path.join(dir, 'index.html'), INDEX);
    await writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    await writeFile(path.join(dir, 'robots.txt'), 'User-agent: *');
    t = await startTestApp({ overrides: { persistence: InMemoryPersistenceModule.forRoot(), webDistDir: dir } });
  });

  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each(['/', '/settings?tab=referrals', '/auth/callback', '/no/such/page'])('answers a page load of %s with index.html', async (p) => {
    const response = await t.http().get(p).set('Accept', HTML);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });

  it('serves hashed assets with long caching, other files without', async () => {
    const asset = await t.http().get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const robots = await t.http().get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers['cache-control']).toBe('no-cache');
  });

  it('keeps the API paths for the API', async () => {
    expect((await t.http().get('/health').set('Accept', HTML)).body).toMatchObject({ status: 'ok' });
    const unknownApi = await t.http().get('/api/nope').set('Accept', HTML);
    expect([unknownApi.status, unknownApi.body.code]).toEqual([404, 'NOT_FOUND']);
    const settings = await t.http().get('/auth/v1/settings').set('Accept', HTML);
    expect(settings.headers['content-type']).toMatch(/^application\/json/);
  });

  it('keeps the JSON 404 for API clients and for other methods', async () => {
    const json = await t.http().get('/nope');
    expect([json.status, json.body]).toEqual([404, { code: 'NOT_FOUND', detail: 'Cannot GET /nope' }]);
    const post = await t.http().post('/settings').set('Accept', HTML);
    expect(post.status).toBe(404);
  });
});
