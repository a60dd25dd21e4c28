import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataApiServer, PgDataApi } from '@kiln/adapters';
import { dataHostHandler, installHostDispatch } from './install-host-dispatch.js';

// The data origin answers its hosts before the app; here no project database exists (404 in PostgREST's shape).
describe('dataHostHandler', () => {
  let server: http.Server;
  let port: number;
  const appSaw: string[] = [];
  const looked: string[] = [];
  const api = new PgDataApi();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      appSaw.push(`${req.headers.host} ${req.url}`);
      res.writeHead(200).end('app');
    });
    const data = new DataApiServer('http://{ref}.data.localhost:{port}', { findByRef: async (ref) => (looked.push(ref), null) }, api);
    installHostDispatch(server, [dataHostHandler(data)]);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await api.close();
  });

  const request = (host: string, path: string, method = 'GET') =>
    new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host, apikey: 'x' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });

  it('serves /rest/v1 of a data host, never the app', async () => {
    const ref = 'abcdefghij0123456789';
    const res = await request(`${ref}.data.localhost:${port}`, '/rest/v1/todos?select=id');
    expect([res.status, JSON.parse(res.body)]).toEqual([404, { code: 'PGRST125', message: 'No project database at this address', details: null, hint: null }]);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(looked).toEqual([ref]);
    const auth = await request(`${ref}.data.localhost:${port}`, '/auth/v1/signup', 'POST');
    expect(auth.status).toBe(404);
    const preflight = await request(`${ref}.data.localhost:${port}`, '/rest/v1/todos', 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(appSaw).toEqual([]);
  });

  it("lets a service of the data origin answer its own preflight (app sign-in's PUT /auth/v1/user)", async () => {
    const service = {
      prefix: '/auth/v1',
      handle: (_ref: string, req: http.IncomingMessage, res: http.ServerResponse) => {
        res.writeHead(204, { 'Access-Control-Allow-Methods': req.method === 'OPTIONS' ? 'GET, POST, PUT, DELETE, OPTIONS' : '' }).end();
      },
    };
    const withAuth = new DataApiServer('http://{ref}.data.localhost:{port}', { findByRef: async () => null }, api, [service]);
    const own = http.createServer((req, res) => withAuth.handle(req, res));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const ownPort = (own.address() as AddressInfo).port;
    try {
      const preflight = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: ownPort, path: '/auth/v1/user', method: 'OPTIONS', headers: { host: 'abcdefghij0123456789.data.localhost' } }, resolve);
        req.on('error', reject);
        req.end();
      });
      preflight.resume();
      expect(preflight.headers['access-control-allow-methods']).toContain('PUT');
    } finally {
      await new Promise((resolve) => own.close(resolve));
    }
  });

  it('leaves other hosts (and refs that are not one) to the app', async () => {
    expect((await request(`localhost:${port}`, '/rest/v1/todos')).body).toBe('app');
    expect((await request(`short.data.localhost:${port}`, '/rest/v1/todos')).body).toBe('app');
    expect(appSaw).toHaveLength(2);
  });

  it('hands a data host’s websocket upgrades under a service’s prefix to that service, and refuses the others with 404', async () => {
    const upgraded: string[] = [];
    const service = {
      prefix: '/realtime/v1',
      handle: (_ref: string, _req: http.IncomingMessage, res: http.ServerResponse) => void res.writeHead(426).end(),
      upgrade: (ref: string, req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
        upgraded.push(`${ref} ${req.url}`);
        socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      },
    };
    const withRealtime = new DataApiServer('http://{ref}.data.localhost:{port}', { findByRef: async () => null }, api, [service]);
    const own = http.createServer((_req, res) => res.writeHead(200).end('app'));
    installHostDispatch(own, [dataHostHandler(withRealtime)]);
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const ownPort = (own.address() as AddressInfo).port;
    const upgrade = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: ownPort, path, headers: { host: 'abcdefghij0123456789.data.localhost', connection: 'Upgrade', upgrade: 'websocket' } });
        req.on('upgrade', (res, socket) => (socket.destroy(), resolve(res.statusCode ?? 0)));
        req.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await upgrade('/realtime/v1/websocket?apikey=k&vsn=2.0.0')).toBe(101);
      expect(upgraded).toEqual(['abcdefghij0123456789 /realtime/v1/websocket?apikey=k&vsn=2.0.0']);
      expect(await upgrade('/rest/v1/todos')).toBe(404);
      expect(upgraded).toHaveLength(1);
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });
});
