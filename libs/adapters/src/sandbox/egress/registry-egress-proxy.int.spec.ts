import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdir, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { connectHead, echoServer, echoThrough, proxyRequest, tempSocketDir } from '../testing/egress-test-servers.js';
import { RegistryEgressProxy, type RegistryEgressProxyOptions } from './registry-egress-proxy.js';

describe('RegistryEgressProxy', () => {
  let echo: Awaited<ReturnType<typeof echoServer>>;
  let other: Awaited<ReturnType<typeof echoServer>>;
  let folder: Awaited<ReturnType<typeof tempSocketDir>>;
  const proxies: RegistryEgressProxy[] = [];
  const sockets: Socket[] = [];
  let count = 0;

  /** A started proxy on a fresh socket whose registry is the local echo server. */
  async function proxy(options: Partial<RegistryEgressProxyOptions> = {}): Promise<RegistryEgressProxy> {
    count += 1;
    const started = new RegistryEgressProxy({
      socketPath: path.join(folder.dir, `p${count}`, 'egress.sock'),
      registry: `https://localhost:${echo.port}/`,
      allowLoopback: true,
      upstreamProxy: null,
      ...options,
    });
    await started.start();
    proxies.push(started);
    return started;
  }

  async function ask(p: RegistryEgressProxy, head: string) {
    const answer = await proxyRequest(p.socketPath, head);
    sockets.push(answer.socket);
    return answer;
  }

  beforeAll(async () => {
    echo = await echoServer();
    other = await echoServer();
    folder = await tempSocketDir();
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(proxies.splice(0).map((p) => p.stop()));
  });
  afterAll(async () => {
    await echo.close();
    await other.close();
    await folder.close();
  });

  it('tunnels CONNECT to the registry, byte for byte', async () => {
    const p = await proxy();
    const answer = await ask(p, connectHead(`localhost:${echo.port}`));
    expect(answer.status).toBe(200);
    await expect(echoThrough(answer.socket, 'ping')).resolves.toBe('echo:ping');
    expect(p.openedCount).toBe(1);
    expect(p.refusedCount).toBe(0);
  });

  it.each([
    ['another port', () => `localhost:${other.port}`],
    ['another host', () => 'example.com:443'],
    ['the registry by another name', () => `127.0.0.1:${echo.port}`],
    ['a malformed target', () => 'localhost'],
  ])('refuses CONNECT to %s with 403, without connecting', async (_label, target) => {
    const p = await proxy();
    const before = echo.connections + other.connections;
    const answer = await ask(p, connectHead(target()));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/not the registry/);
    expect(echo.connections + other.connections).toBe(before);
    expect(p.refusedCount).toBe(1);
    expect(p.openedCount).toBe(0);
  });

  it('refuses plain HTTP requests with 403 (the registry is https:)', async () => {
    const p = await proxy();
    const answer = await ask(p, `GET http://localhost:${echo.port}/mitt HTTP/1.1\r\nHost: localhost:${echo.port}\r\n\r\n`);
    expect(answer.status).toBe(403);
    const origin = await ask(p, 'GET /mitt HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(origin.status).toBe(403);
    expect(p.refusedCount).toBe(2);
  });

  it('refuses the registry when its name resolves to loopback and loopback is not allowed', async () => {
    const p = await proxy({ allowLoopback: false });
    const before = echo.connections;
    const answer = await ask(p, connectHead(`localhost:${echo.port}`));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatch(/loopback address \(127\.0\.0\.1\)/);
    expect(echo.connections).toBe(before);
  });

  it.each([
    ['private', ['10.1.2.3']],
    ['private', ['192.168.0.10']],
    ['private', ['203.0.113.80', '172.20.0.1']],
    ['private', ['fd12::1']],
    ['link-local', ['169.254.169.254']],
    ['link-local', ['fe80::1']],
    ['unspecified', ['0.0.0.0']],
    ['multicast', ['224.0.0.1']],
    ['loopback', ['::ffff:127.0.0.1']],
    ['loopback', ['::1']],
  ])('refuses a registry name resolving to a %s address (%j), even beside a public one', async (kind, addresses) => {
    const p = await proxy({ registry: 'https://registry.npmjs.org/', allowLoopback: false, lookup: () => Promise.resolve(addresses) });
    const answer = await ask(p, connectHead('registry.npmjs.org:443'));
    expect(answer.status).toBe(403);
    expect(answer.body).toContain(`a ${kind} address`);
    expect(p.openedCount).toBe(0);
  });

  it('takes the registry from npm_config_registry when no option names one', async () => {
    const saved = process.env.npm_config_registry;
    process.env.npm_config_registry = `https://localhost:${other.port}/`;
    try {
      count += 1;
      const p = new RegistryEgressProxy({ socketPath: path.join(folder.dir, `p${count}`, 'egress.sock'), allowLoopback: true, upstreamProxy: null });
      await p.start();
      proxies.push(p);
      expect((await ask(p, connectHead(`localhost:${other.port}`))).status).toBe(200);
      expect((await ask(p, connectHead(`localhost:${echo.port}`))).status).toBe(403);
    } finally {
      if (saved === undefined) delete process.env.npm_config_registry;
      else process.env.npm_config_registry = saved;
    }
  });

  it('accepts the extra host:port targets it is given', async () => {
    const p = await proxy({ allow: [`localhost:${other.port}`] });
    expect((await ask(p, connectHead(`localhost:${other.port}`))).status).toBe(200);
    expect((await ask(p, connectHead(`localhost:${echo.port}`))).status).toBe(200);
  });

  it('answers 503 past its tunnel limit, and frees a tunnel when it closes', async () => {
    const p = await proxy({ maxTunnels: 1 });
    const first = await ask(p, connectHead(`localhost:${echo.port}`));
    expect(first.status).toBe(200);
    expect((await ask(p, connectHead(`localhost:${echo.port}`))).status).toBe(503);
    first.socket.destroy();
    await waitFor(() => p.openTunnels === 0);
    const third = await ask(p, connectHead(`localhost:${echo.port}`));
    expect(third.status).toBe(200);
    await expect(echoThrough(third.socket, 'again')).resolves.toBe('echo:again');
  });

  it('closes a tunnel that stays idle', async () => {
    const p = await proxy({ idleTimeoutMs: 200 });
    const answer = await ask(p, connectHead(`localhost:${echo.port}`));
    expect(answer.status).toBe(200);
    await new Promise<void>((resolve) => answer.socket.once('close', () => resolve()));
    await waitFor(() => p.openTunnels === 0);
  });

  it('answers 502 when the registry does not answer in time', async () => {
    const p = await proxy({
      registry: 'https://registry.npmjs.org/',
      connectTimeoutMs: 100,
      lookup: () => new Promise<readonly string[]>((resolve) => setTimeout(() => resolve(['203.0.113.9']), 1_000)),
    });
    const answer = await ask(p, connectHead('registry.npmjs.org:443'));
    expect(answer.status).toBe(502);
    expect(answer.body).toMatch(/did not answer within 100 ms/);
    expect(p.openTunnels).toBe(0);
  });

  it('forwards plain HTTP to an http: registry, and nothing else', async () => {
    const seen: string[] = [];
    const registry: Server = createHttpServer((req: IncomingMessage, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers['proxy-authorization'] ?? ''}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"mitt"}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const port = (registry.address() as { port: number }).port;
    try {
      const p = await proxy({ registry: `http://localhost:${port}/` });
      const answer = await httpThrough(p.socketPath, `http://localhost:${port}/mitt`, { 'proxy-authorization': 'Basic c2VjcmV0' });
      expect(answer).toEqual({ status: 200, body: '{"name":"mitt"}' });
      expect(seen).toEqual(['GET /mitt ']);
      expect((await ask(p, `GET http://localhost:${echo.port}/mitt HTTP/1.1\r\nHost: x\r\n\r\n`)).status).toBe(403);
      expect((await ask(p, connectHead(`localhost:${port}`))).status).toBe(403);
    } finally {
      await new Promise<void>((resolve) => registry.close(() => resolve()));
    }
  });

  it('chains CONNECT through the upstream proxy the host needs, with its credentials', async () => {
    const asked: string[] = [];
    const tunnels: Socket[] = [];
    const upstream = createHttpServer();
    upstream.on('connect', (req: IncomingMessage, client: Socket) => {
      tunnels.push(client);
      asked.push(`${req.url} ${req.headers['proxy-authorization'] ?? ''}`);
      const target = connect(echo.port, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        client.pipe(target).pipe(client);
      });
      client.on('error', () => target.destroy());
      target.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as { port: number }).port;
    try {
      // A name this machine cannot resolve: only the upstream proxy knows where it is.
      const p = await proxy({ registry: 'https://registry.kiln.invalid/', allowLoopback: false, upstreamProxy: `http://kiln:s%40cret@127.0.0.1:${port}`, noProxy: [] });
      const answer = await ask(p, connectHead('registry.kiln.invalid:443'));
      expect(answer.status).toBe(200);
      await expect(echoThrough(answer.socket, 'chained')).resolves.toBe('echo:chained');
      expect(asked).toEqual([`registry.kiln.invalid:443 Basic ${Buffer.from('kiln:s@cret').toString('base64')}`]);
      expect((await ask(p, connectHead('example.com:443'))).status).toBe(403);
      expect(asked).toHaveLength(1);
    } finally {
      for (const tunnel of tunnels) tunnel.destroy();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    }
  });

  it('creates its socket in a private folder and replaces a stale socket', async () => {
    const dir = path.join(folder.dir, 'stale');
    await mkdir(dir, { mode: 0o700 });
    const socketPath = path.join(dir, 'egress.sock');
    // A socket left by a process that was killed: the file is there, nobody listens.
    const killed = spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    expect(killed.signal).toBe('SIGKILL');
    expect((await lstat(socketPath)).isSocket()).toBe(true);
    const p = await proxy({ socketPath });
    expect(((await lstat(dir)).mode & 0o777).toString(8)).toBe('700');
    expect((await ask(p, connectHead(`localhost:${echo.port}`))).status).toBe(200);
    await p.stop();
    await expect(lstat(socketPath)).rejects.toThrow(/ENOENT/);

    const fresh = path.join(folder.dir, 'fresh', 'deeper', 'egress.sock');
    await proxy({ socketPath: fresh });
    expect(((await lstat(path.dirname(fresh))).mode & 0o777).toString(8)).toBe('700');
  });

  it('refuses to start in a folder others may enter, on a path too long, over a file that is not a socket, or over a live socket', async () => {
    const open = path.join(folder.dir, 'open');
    await mkdir(open);
    await chmod(open, 0o755);
    await expect(new RegistryEgressProxy({ socketPath: path.join(open, 'egress.sock'), upstreamProxy: null }).start()).rejects.toThrow(/mode 0700/);

    const notSocket = path.join(folder.dir, 'file', 'egress.sock');
    await mkdir(path.dirname(notSocket), { mode: 0o700 });
    await writeFile(notSocket, 'keep me');
    await expect(new RegistryEgressProxy({ socketPath: notSocket, upstreamProxy: null }).start()).rejects.toThrow(/not a socket/);

    const long = path.join(folder.dir, 'x'.repeat(120), 'egress.sock');
    await expect(new RegistryEgressProxy({ socketPath: long, upstreamProxy: null }).start()).rejects.toThrow(/longer than 107 bytes/);

    const live = await proxy();
    await expect(new RegistryEgressProxy({ socketPath: live.socketPath, upstreamProxy: null }).start()).rejects.toThrow(/Another process listens/);
    expect((await ask(live, connectHead(`localhost:${echo.port}`))).status).toBe(200);
  });

  it('closes its tunnels when stopped', async () => {
    const p = await proxy();
    const answer = await ask(p, connectHead(`localhost:${echo.port}`));
    const closed = new Promise<void>((resolve) => answer.socket.once('close', () => resolve()));
    await p.stop();
    await closed;
    await expect(proxyRequest(p.socketPath, connectHead(`localhost:${echo.port}`))).rejects.toThrow(/ENOENT/);
  });
});

/** A plain HTTP request through the proxy, as npm sends it to an http: registry. */
function httpThrough(socketPath: string, url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath, path: url, headers: { host: new URL(url).host, ...headers }, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
