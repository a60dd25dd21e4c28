import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { StaticSiteServer } from '@kiln/adapters';
import { installHostDispatch, siteHostHandler } from './install-host-dispatch.js';

describe('installHostDispatch', () => {
  let server: http.Server;
  let port: number;
  let root: string;
  const appSaw: string[] = [];
  const upgradesSeen: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'kiln-dispatch-'));
    // The "app": what Express would be, with an upgrade listener of its own.
    server = http.createServer((req, res) => {
      appSaw.push(`${req.headers.host} ${req.url} cookie=${req.headers.cookie ?? ''}`);
      res.writeHead(200, { 'set-cookie': 'kiln_session=abc' }).end('app');
    });
    server.on('upgrade', (req, socket) => {
      upgradesSeen.push(`app ${req.headers.host}`);
      socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    });
    const preview = {
      matches: (req: http.IncomingMessage) => req.headers.host?.startsWith('preview-') === true,
      handleRequest: (_req: http.IncomingMessage, res: http.ServerResponse) => void res.writeHead(200).end('preview'),
      handleUpgrade: (req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
        upgradesSeen.push(`preview ${req.headers.host}`);
        socket.end('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      },
    };
    const sites = new StaticSiteServer({ hostingRoot: root, isSiteHost: (host) => host.endsWith('.apps.localhost') });
    installHostDispatch(server, [preview, siteHostHandler(sites)]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(root, { recursive: true, force: true });
  });

  const get = (host: string, headers: http.OutgoingHttpHeaders = {}) =>
    new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/x', headers: { host, ...headers } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        })
        .on('error', reject);
    });

  const upgrade = (host: string) =>
    new Promise<string>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, headers: { host, connection: 'Upgrade', upgrade: 'websocket' } });
      req.on('upgrade', (_res, socket) => {
        socket.destroy();
        resolve('upgraded');
      });
      req.on('error', () => resolve('closed'));
      req.on('response', (res) => resolve(`status ${res.statusCode}`));
      req.end();
    });

  it('sends each host to its handler and everything else to the app', async () => {
    expect((await get('preview-abc.localhost')).body).toBe('preview');
    const site = await get('shop.apps.localhost:3000', { cookie: 'kiln_session=secret' });
    expect(site.status).toBe(404); // nothing published there
    expect(site.body).toContain('No site is published');
    expect(site.headers['set-cookie']).toBeUndefined();
    expect((await get('localhost:3000')).body).toBe('app');
    // The app never saw the preview's or the site's requests.
    expect(appSaw).toEqual(['localhost:3000 /x cookie=']);
  });

  it('gives upgrades to the handler that has them, refuses them for one that has none, the app gets the rest', async () => {
    expect(await upgrade('preview-abc.localhost')).toBe('upgraded');
    expect(await upgrade('shop.apps.localhost')).toBe('closed');
    expect(await upgrade('localhost')).toBe('upgraded');
    expect(upgradesSeen).toEqual(['preview preview-abc.localhost', 'app localhost']);
  });
});
