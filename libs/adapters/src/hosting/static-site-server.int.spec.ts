import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { removeReadOnlyTree } from './hosting-paths.js';
import { LocalHostingProvider } from './local-hosting-provider.adapter.js';
import { StaticSiteServer } from './static-site-server.js';

const SITE = 'shop.apps.localhost';
const JS = `export const greeting = ${JSON.stringify('hello from the published app '.repeat(80))};\n`;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('StaticSiteServer over HTTP', () => {
  let base: string;
  let provider: LocalHostingProvider;
  let server: http.Server;
  let port: number;
  /** Whether Cookie and Authorization were gone from each request once the site server had it. */
  const credentialsSeen: boolean[] = [];

  /** A build output in `<base>/project-<name>/dist`, stored as release `name` by the real provider. */
  const release = async (name: string, title: string) => {
    const dist = path.join(base, `project-${name}`, 'dist');
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await mkdir(path.join(dist, 'docs'), { recursive: true });
    await writeFile(path.join(dist, 'index.html'), `<!doctype html><title>${title}</title><div id="root"></div><script type="module" src="/assets/index-AbCdEf12.js"></script>`);
    await writeFile(path.join(dist, 'assets', 'index-AbCdEf12.js'), JS);
    await writeFile(path.join(dist, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await writeFile(path.join(dist, 'docs', 'index.html'), '<p>docs</p>');
    await writeFile(path.join(dist, 'big.bin'), Buffer.alloc(9 * 1024 * 1024, 7));
    const builder = { buildForRelease: async () => ({ exitCode: 0, timedOut: false, log: 'built', projectDir: path.dirname(dist), outputDir: 'dist' }) };
    const p = new LocalHostingProvider({ hostingRoot: path.join(base, 'hosting'), builder });
    const build = await p.buildRelease({ sandboxId: 'sb', projectId: 'project-1', releaseId: name });
    expect(build.kind).toBe('built');
  };

  const get = (pathname: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET', host = SITE): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: pathname, method, headers: { host, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });

  /** A request line sent as it is (Node's client would refuse or normalise some of these paths). */
  const raw = (target: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${SITE}\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
      socket.on('error', reject);
    });

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'kiln-site-server-'));
    provider = new LocalHostingProvider({ hostingRoot: path.join(base, 'hosting'), builder: { buildForRelease: () => Promise.reject(new Error('unused')) } });
    await release('r1', 'Release one');
    await release('r2', 'Release two');
    await provider.activate({ slug: 'shop', releaseId: 'r1', hosts: [SITE] });
    // A link inside a release (impossible through the provider): the server must not follow it.
    const dir = provider.releaseDir('project-1', 'r1');
    await chmod(dir, 0o755);
    await symlink('/etc/passwd', path.join(dir, 'passwd.txt'));
    await symlink('/etc', path.join(dir, 'etc'));
    await chmod(dir, 0o555);
    const sites = new StaticSiteServer({ hostingRoot: path.join(base, 'hosting'), isSiteHost: (host) => host.endsWith('.apps.localhost') });
    server = http.createServer((req, res) => {
      if (!sites.matches(req)) {
        res.writeHead(418).end();
        return;
      }
      sites.handle(req, res);
      credentialsSeen.push(req.headers.cookie !== undefined || req.headers.authorization !== undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await removeReadOnlyTree(base);
  });

  it('serves index.html for / with no-cache, security headers and no cookie; strips Cookie and Authorization', async () => {
    const r = await get('/', { cookie: 'kiln_session=secret', authorization: 'Bearer secret' });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toContain('<title>Release one</title>');
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(credentialsSeen.at(-1)).toBe(false);
  });

  it('answers client-side routes with index.html, a folder with its index, a missing asset with 404', async () => {
    expect((await get('/dashboard/settings')).body.toString()).toContain('Release one');
    expect((await get('/docs/')).body.toString()).toBe('<p>docs</p>');
    for (const missing of ['/assets/nope-12345678.js', '/missing.png', '/dashboard/app.css']) expect((await get(missing)).status).toBe(404);
  });

  it('caches hashed assets for ever, with their type', async () => {
    const r = await get('/assets/index-AbCdEf12.js');
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.body.toString()).toBe(JS);
    expect((await get('/assets/logo.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('compresses with brotli or gzip as asked, and says it varies', async () => {
    const br = await get('/assets/index-AbCdEf12.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.body).toString()).toBe(JS);
    expect(br.body.length).toBeLessThan(JS.length / 4);
    const gz = await get('/assets/index-AbCdEf12.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(JS);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
  });

  it('answers 304 to a matching If-None-Match, and HEAD without a body', async () => {
    const first = await get('/assets/index-AbCdEf12.js', { 'accept-encoding': 'br' });
    const again = await get('/assets/index-AbCdEf12.js', { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/assets/index-AbCdEf12.js', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(JS));
    expect(head.body.length).toBe(0);
  });

  it('streams a file too large to keep in memory', async () => {
    const r = await get('/big.bin');
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(9 * 1024 * 1024);
    expect(r.headers['content-type']).toBe('application/octet-stream');
  });

  it('answers only GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const r = await get('/', {}, method);
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD');
    }
  });

  it('refuses path tricks and never follows a link inside a release', async () => {
    for (const target of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/index.html%00.js', '/..\\..\\etc\\passwd', '/assets%2f..%2f..%2fhosts', '//etc/passwd']) {
      expect(await raw(target)).toBe(400);
    }
    expect((await get('/passwd.txt')).status).toBe(404);
    expect((await get('/etc/os-release.txt')).status).toBe(404);
    // Without an extension it is a client-side route: the app's page, never the host's file.
    const route = await get('/etc/passwd');
    expect(route.body.toString()).toContain('Release one');
    expect(route.body.toString()).not.toContain('root:');
  });

  it('tells which hosts it serves now', async () => {
    const sites = new StaticSiteServer({ hostingRoot: path.join(base, 'hosting'), isSiteHost: () => false });
    expect(sites.serves(SITE)).toBe(true);
    expect(sites.serves('nothing-here.apps.localhost')).toBe(false);
    expect(sites.serves('../hosting')).toBe(false);
  });

  it('answers a site host that serves nothing with a 404 page', async () => {
    const r = await get('/', {}, 'GET', 'nothing-here.apps.localhost');
    expect(r.status).toBe(404);
    expect(r.body.toString()).toContain('No site is published at this address');
  });

  it('serves the new release right after a switch, and the old one after a rollback', async () => {
    await provider.activate({ slug: 'shop', releaseId: 'r2', hosts: [SITE] });
    expect((await get('/')).body.toString()).toContain('Release two');
    expect((await get('/passwd.txt')).status).toBe(404);
    await provider.activate({ slug: 'shop', releaseId: 'r1', hosts: [SITE] });
    expect((await get('/about')).body.toString()).toContain('Release one');
    await provider.deactivate([SITE]);
    expect((await get('/')).status).toBe(404);
    await rm(path.join(base, 'unused'), { force: true });
  });
});
