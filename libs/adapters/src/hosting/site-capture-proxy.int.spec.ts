import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { captureCertificate } from './capture-certificate.js';
import { removeReadOnlyTree } from './hosting-paths.js';
import { SiteCaptureProxy } from './site-capture-proxy.js';
import { publishStaticSites } from './testing/static-sites.js';

/** Raw proxy traffic on loopback, as a jailed browser sends it through the forwarder. */
describe('SiteCaptureProxy', () => {
  let base: string;
  let hostingRoot: string;
  let proxy: SiteCaptureProxy;
  let port: number;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'kiln-capture-proxy-'));
    hostingRoot = path.join(base, 'hosting');
    await publishStaticSites(base, hostingRoot, ['site.apps.localhost', 'other.apps.localhost']);
    proxy = new SiteCaptureProxy({ hostingRoot, host: 'site.apps.localhost', tls: await captureCertificate() });
    port = await proxy.listenOnLoopback();
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    if (base) {
      await removeReadOnlyTree(hostingRoot);
      await rm(base, { recursive: true, force: true });
    }
  });

  const viaProxy = (target: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: target, method, headers: { host } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.once('error', reject);
      req.end();
    });

  /** CONNECT, then (when it is accepted) a GET over TLS with `host` as the Host header. */
  const tunnel = (authority: string, host: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'CONNECT', path: authority });
      req.once('connect', (res, socket: net.Socket) => {
        if (res.statusCode !== 200) {
          socket.destroy();
          resolve(`CONNECT ${res.statusCode}`);
          return;
        }
        const secure = tls.connect({ socket, servername: host.replace(/:\d+$/, ''), rejectUnauthorized: false }, () => {
          secure.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        });
        let text = '';
        secure.on('data', (d: Buffer) => (text += d.toString()));
        secure.on('end', () => resolve(text.split('\r\n')[0] + (text.includes('<p>site.apps.localhost</p>') ? ' site' : '')));
        secure.once('error', reject);
      });
      req.once('error', reject);
      req.end();
    });

  it("answers the site's own host from its release, with or without a port (a missing file is its 404)", async () => {
    expect(await viaProxy('http://site.apps.localhost/', 'site.apps.localhost')).toEqual({ status: 200, body: '<p>site.apps.localhost</p>' });
    expect((await viaProxy('http://site.apps.localhost:3000/missing.png', 'site.apps.localhost:3000')).status).toBe(404);
  });

  it.each([
    ['another published site', 'http://other.apps.localhost/', 'other.apps.localhost'],
    ['an IP literal', 'http://127.0.0.1:5432/', '127.0.0.1:5432'],
    ['localhost', 'http://localhost/', 'localhost'],
    ['a public name', 'http://example.com/', 'example.com'],
    ["the site's URL with another Host", 'http://site.apps.localhost/', 'other.apps.localhost'],
    ["another URL with the site's Host", 'http://other.apps.localhost/', 'site.apps.localhost'],
    ['credentials in the URL', 'http://user:pw@site.apps.localhost/', 'site.apps.localhost'],
    ['an https URL in absolute form', 'https://site.apps.localhost/', 'site.apps.localhost'],
  ])('refuses %s (403, nothing forwarded)', async (_what, target, host) => {
    expect((await viaProxy(target, host)).status).toBe(403);
  });

  it('answers only GET and HEAD', async () => {
    expect((await viaProxy('http://site.apps.localhost/', 'site.apps.localhost', 'POST')).status).toBe(405);
  });

  it('terminates TLS for the site only, and still checks the Host inside the tunnel', async () => {
    expect(await tunnel('site.apps.localhost:443', 'site.apps.localhost')).toBe('HTTP/1.1 200 OK site');
    expect(await tunnel('site.apps.localhost:443', 'other.apps.localhost')).toBe('HTTP/1.1 403 Forbidden');
    for (const authority of ['other.apps.localhost:443', '127.0.0.1:443', 'example.com:443', 'localhost:5432']) {
      expect(await tunnel(authority, 'site.apps.localhost')).toBe('CONNECT 403');
    }
    expect(proxy.refused).toEqual(expect.arrayContaining(['CONNECT other.apps.localhost:443', 'CONNECT 127.0.0.1:443', 'GET /']));
  });
});
