import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CaddyEdge, CaddyEdgeUnavailable, type CaddyEdgeOptions } from './caddy-edge.js';
import { CaddyProcess, makeCertificate } from './testing/caddy-process.js';
import { AskServer, edgeGet } from './testing/edge-client.js';
import { freePort, requireBinaries } from './testing/test-processes.js';

/** A release folder as the hosting provider leaves it, and `hosts/<host>` switched to it atomically. */
function release(root: string, id: string, files: Record<string, string>): string {
  const dir = path.join(root, 'releases', id);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}
function serve(root: string, host: string, releaseDir: string): void {
  const link = path.join(root, 'hosts', host);
  mkdirSync(path.dirname(link), { recursive: true });
  symlinkSync(releaseDir, `${link}.next`);
  renameSync(`${link}.next`, link);
}

describe('CaddyEdge with a real Caddy', () => {
  let dir: string;
  let caddy: CaddyProcess;
  let ask: AskServer;
  let options: CaddyEdgeOptions;
  let wildcardCa: string;
  const big = `<!doctype html><title>Pantry</title>${'<p>pantry shelf</p>'.repeat(200)}`;

  beforeAll(async () => {
    requireBinaries('caddy', 'openssl');
    dir = mkdtempSync(path.join(tmpdir(), 'kiln-caddy-edge-'));
    const hostingRoot = path.join(dir, 'hosting');
    const v1 = release(hostingRoot, 'r1', { 'index.html': big, 'assets/app-1a2b.js': 'console.log("v1")' });
    serve(hostingRoot, 'pantry.kiln.test', v1);
    serve(hostingRoot, 'shop.example.test', v1);
    const wildcard = makeCertificate(path.join(dir, 'certs'), 'wildcard', ['*.kiln.test']);
    wildcardCa = readFileSync(wildcard.caFile, 'utf8');
    [caddy, ask] = await Promise.all([CaddyProcess.start(path.join(dir, 'caddy')), AskServer.start()]);
    options = {
      adminUrl: caddy.adminUrl,
      hostingRoot,
      httpPort: await freePort(),
      httpsPort: await freePort(),
      askUrl: ask.url,
      wildcard: { subjects: ['*.kiln.test'], certFile: wildcard.certFile, keyFile: wildcard.keyFile },
    };
    await new CaddyEdge(options).load();
  });

  afterAll(async () => {
    await Promise.all([caddy?.stop(), ask?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const http = (host: string, p = '/', headers?: Record<string, string>) => edgeGet({ scheme: 'http', port: options.httpPort, host, path: p, headers });

  it('serves a host its folder, with the SPA fallback for client-side routes and no-cache HTML', async () => {
    for (const p of ['/', '/recipes/42?tab=notes']) {
      const res = await http('pantry.kiln.test', p);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(big);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers.server).toBeUndefined();
    }
  });

  it('caches a found hashed asset for a year, and never a missing one (a 404, not index.html)', async () => {
    const asset = await http('pantry.kiln.test', '/assets/app-1a2b.js');
    expect(asset.status).toBe(200);
    expect(asset.body.toString()).toBe('console.log("v1")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await http('pantry.kiln.test', '/assets/app-ffff.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-cache');
  });

  it('compresses what is worth compressing', async () => {
    const res = await http('pantry.kiln.test', '/', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(big);
  });

  it('answers 404 for unknown hosts and for Host headers that would escape hosts/', async () => {
    writeFileSync(path.join(options.hostingRoot, 'secret.txt'), 'not for the web');
    for (const host of ['unknown.example.test', '..', '.', 'hosts/..', 'PANTRY.KILN.TEST', '%2e%2e', 'pantry.kiln.test..', '']) {
      const res = await http(host, '/secret.txt');
      // Go's server already answers 400 to a Host it cannot parse; Caddy's route answers the rest.
      expect({ host, refused: [400, 404].includes(res.status) }).toEqual({ host, refused: true });
      expect(res.body.toString()).not.toContain('not for the web');
    }
    const traversal = await http('pantry.kiln.test', '/../../secret.txt');
    expect(traversal.body.toString()).not.toContain('not for the web');
  });

  it('serves the new release as soon as the host folder is switched, with no reload', async () => {
    const v2 = release(options.hostingRoot, 'r2', { 'index.html': '<h1>v2</h1>' });
    serve(options.hostingRoot, 'shop.example.test', v2);
    expect((await http('shop.example.test')).body.toString()).toBe('<h1>v2</h1>');
    expect((await http('pantry.kiln.test')).body.toString()).toBe(big);
  });

  it("serves Kiln's subdomains over HTTPS with the wildcard certificate from files, never asking to issue one", async () => {
    const res = await edgeGet({ scheme: 'https', port: options.httpsPort, host: 'pantry.kiln.test', ca: wildcardCa });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe(big);
    const unpublished = await edgeGet({ scheme: 'https', port: options.httpsPort, host: 'gone.kiln.test', ca: wildcardCa });
    expect(unpublished.status).toBe(404);
    expect(ask.asked.filter((d) => d.endsWith('.kiln.test'))).toEqual([]);
  });

  it('asks Kiln before issuing for any other host, and a refused host gets no certificate', async () => {
    await expect(edgeGet({ scheme: 'https', port: options.httpsPort, host: 'refused.example.test', ca: wildcardCa })).rejects.toThrow();
    expect(ask.asked).toContain('refused.example.test');
  });

  it('loads again harmlessly, reports a config Caddy refuses, and keeps serving the previous one', async () => {
    const edge = new CaddyEdge(options);
    await edge.load();
    expect(await edge.running()).toEqual(JSON.parse(JSON.stringify(edge.config)));
    const broken = new CaddyEdge({ ...options, wildcard: { subjects: ['*.kiln.test'], certFile: path.join(dir, 'missing.pem'), keyFile: path.join(dir, 'missing.pem') } });
    await expect(broken.load()).rejects.toThrow(CaddyEdgeUnavailable);
    expect((await http('pantry.kiln.test')).status).toBe(200);
  });

  it('reports an admin API that does not answer', async () => {
    const dead = new CaddyEdge({ ...options, adminUrl: `http://127.0.0.1:${await freePort()}` }, 2000);
    await expect(dead.load()).rejects.toThrow(/did not answer/);
  });
});
