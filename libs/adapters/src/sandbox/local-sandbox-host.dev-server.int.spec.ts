import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DevServerState, SandboxHostEvent } from '@kiln/domain';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from './local-sandbox-host.adapter.js';
import { socketAccepts } from './dev-servers.js';
import { VITE_LAUNCHER_RELATIVE_PATH } from './starter-dependency-cache.js';
import { TEST_SANDBOX_CACHE_DIR, tempSandboxRoot } from './testing/sandbox-test-dirs.js';
import { getOverSocket as get } from './testing/unix-http.js';
import { waitFor } from './testing/wait-for.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);


/** A websocket (Vite's HMR protocol) over the Unix socket; `received` gathers the server's text frames. */
function hmrClient(socketPath: string, token: string): Promise<{ socket: Socket; received: () => string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      socketPath,
      path: `/?token=${token}`,
      agent: false,
      headers: { host: 'localhost', Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Protocol': 'vite-hmr' },
    });
    req.on('upgrade', (_res, socket: Socket, head: Buffer) => {
      let buffer = head;
      let text = '';
      const drain = () => {
        // Server frames are unmasked; Vite sends small text frames.
        while (buffer.length >= 2) {
          let length = (buffer[1] as number) & 0x7f;
          let offset = 2;
          if (length === 126) [length, offset] = [buffer.readUInt16BE(2), 4];
          else if (length === 127) [length, offset] = [Number(buffer.readBigUInt64BE(2)), 10];
          if (buffer.length < offset + length) return;
          text += `${buffer.subarray(offset, offset + length).toString('utf8')}\n`;
          buffer = buffer.subarray(offset + length);
        }
      };
      drain();
      socket.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        drain();
      });
      resolve({ socket, received: () => text });
    });
    req.on('response', (res) => reject(new Error(`No websocket: ${res.statusCode ?? 0}`)));
    req.on('error', reject);
    req.end();
  });
}

/** Whether anything accepts TCP connections on the loopback port. */
function tcpAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(300, () => (socket.destroy(), resolve(false)));
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}

/** Processes whose command line mentions the folder (the launcher gets the project path). */
function processesMentioning(dir: string, withPid = false): string[] {
  return execFileSync('ps', ['-eo', withPid ? 'pid,args' : 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dir) && !/^\s*(\d+\s+)?ps /.test(line));
}

describe.each([
  ['in bubblewrap', undefined],
  ['without bubblewrap', null],
] as const)('LocalSandboxHost dev servers (%s)', (_label, bwrapPath) => {
  if (bwrapPath === undefined && !hasBwrap) return;
  // Where bubblewrap exists the plain-process variant runs the core tests only (time).
  const full = bwrapPath === undefined || !hasBwrap;
  const itFull = full ? it : it.skip;
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;
  const events: SandboxHostEvent[] = [];
  const statesOf = (id: string) => events.filter((e) => e.sandboxId === id).map((e) => e.state.status);
  const running = (id: string) =>
    waitFor(`${id} running`, async () => {
      const state = await host.devServer(id);
      if (state.status === 'failed') throw new Error(state.message);
      return state.status === 'running' ? state : undefined;
    });

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot());
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, bwrapPath, idleStopMs: 60_000 });
    host.subscribe((e) => events.push(e));
    await host.prepareTemplate();
  }, 120_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('answers starting at once with its socket, then runs and serves the starter (cold start timed)', async () => {
    const id = 'dev-a';
    await host.ensure(id);
    const started = performance.now();
    const first = await host.devServer(id);
    const answeredIn = performance.now() - started;
    expect(first).toMatchObject({ status: 'starting' });
    expect(first.socketPath).toEqual(expect.any(String));
    expect(answeredIn).toBeLessThan(1000);

    const state = await running(id);
    expect(state).toEqual({ status: 'running', socketPath: first.socketPath, message: 'Website is running' });
    const port = state.socketPath as string;
    const index = await waitFor('index.html', async () => {
      const r = await get(port, '/');
      return r.status === 200 ? r : undefined;
    });
    const firstOk = performance.now() - started;
    expect(index.body).toContain('<div id="root"></div>');
    expect(index.body).toContain('/src/main.tsx');
    const app = await get(port, '/src/App.tsx');
    expect(app.status).toBe(200);
    expect(app.body).toContain('Welcome to your Kiln app');
    // Dependencies come pre-bundled from Vite's cache in the project, not the shared node_modules.
    const main = await get(port, '/src/main.tsx');
    expect(main.body).toContain('/.kiln-build/vite/deps/');
    expect(existsSync(path.join(root, id, '.kiln-build', 'vite'))).toBe(true);
    expect(statesOf(id)).toEqual(['starting', 'running']);
    expect(await host.devServer(id)).toEqual(state); // no second server
    process.stdout.write(`dev server (${_label}): starting answered in ${answeredIn.toFixed(0)} ms, first 200 after ${firstOk.toFixed(0)} ms\n`);
  }, 60_000);

  itFull('accepts the preview host name (the proxy forwards it) and serves nothing outside the project', async () => {
    const port = (await running('dev-a')).socketPath as string;
    const viaProxy = await get(port, '/', 'dev-a.preview.localhost:3000');
    expect(viaProxy.status).toBe(200);
    expect((await get(port, '/@fs/etc/passwd')).status).toBe(403);
  }, 60_000);

  it('serves a changed src/App.tsx and pushes the change to the HMR client (timed)', async () => {
    const id = 'dev-a';
    const port = (await running(id)).socketPath as string;
    await get(port, '/src/main.tsx');
    await get(port, '/src/App.tsx');
    const client = await get(port, '/@vite/client');
    const token = /const wsToken = "([^"]*)"/.exec(client.body)?.[1];
    expect(token).toBeDefined();
    // The HMR client connects to the page's own host and port (the preview origin via the proxy).
    expect(client.body).toContain('const hmrPort = null;');

    const { socket, received } = await hmrClient(port, token ?? '');
    try {
      await waitFor('HMR connection', () => (received().includes('"connected"') ? true : undefined), 10_000);
      const written = performance.now();
      await host.writeFile(id, 'src/App.tsx', 'export function App() {\n  return <h1>Changed by the test</h1>;\n}\n');
      const message = await waitFor('HMR update', () => {
        const line = received().split('\n').find((l) => /"type":"(update|full-reload)"/.test(l));
        return line === undefined ? undefined : line;
      });
      const hmrMs = performance.now() - written;
      expect(message).toContain('/src/App.tsx');
      const app = await get(port, '/src/App.tsx');
      expect(app.body).toContain('Changed by the test');
      process.stdout.write(`dev server (${_label}): write → HMR message in ${hmrMs.toFixed(0)} ms\n`);
    } finally {
      socket.destroy();
    }
  }, 60_000);

  itFull('serves only on the socket it was given whatever vite.config says, and passes on no secrets', async () => {
    const id = 'dev-config';
    await host.ensure(id);
    await host.writeFile(
      id,
      'vite.config.ts',
      `import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import { defineConfig } from 'vite';

writeFileSync('env-seen.json', JSON.stringify(Object.keys(process.env)));
export default defineConfig({
  plugins: [react()],
  cacheDir: 'node_modules/.vite',
  server: { host: '0.0.0.0', port: 4321, strictPort: false, hmr: { clientPort: 443, port: 24678 } },
});
`,
    );
    process.env['STRIPE_SECRET_KEY'] = 'sk_test_secret';
    let state: DevServerState;
    try {
      state = await running(id);
    } finally {
      delete process.env['STRIPE_SECRET_KEY'];
    }
    expect((await get(state.socketPath as string, '/src/App.tsx')).body).toContain('Welcome to your Kiln app');
    expect(await tcpAccepts(4321)).toBe(false);
    expect((await get(state.socketPath as string, '/@vite/client')).body).toContain('const hmrPort = null;');
    const seen = JSON.parse(await readFile(path.join(root, id, 'env-seen.json'), 'utf8')) as string[];
    expect(seen).not.toContain('STRIPE_SECRET_KEY');
    expect(seen).not.toContain('DATABASE_URL');
    expect(seen).toEqual(expect.arrayContaining(['PATH', 'HOME']));
  }, 60_000);

  itFull('reports failed with the error when the dev server cannot start, and starts again once fixed', async () => {
    const id = 'dev-broken';
    await host.ensure(id);
    await host.writeFile(id, 'vite.config.ts', "throw new Error('kiln-broken-config');\n");
    await host.devServer(id);
    const failed = await waitFor('failed', () => {
      const e = events.filter((x) => x.sandboxId === id).at(-1);
      return e?.state.status === 'failed' ? e.state : undefined;
    });
    expect(failed.socketPath).toBeNull();
    expect(failed.message).toContain('kiln-broken-config');
    await host.deleteFile(id, 'vite.config.ts');
    const again = await host.devServer(id);
    expect(again.status).toBe('starting');
    await running(id);
  }, 60_000);

  it('restarts: the old process goes, a new one starts and runs', async () => {
    const id = 'dev-restart';
    await host.ensure(id);
    await running(id);
    const before = events.length;
    await host.restartDev(id);
    const after = await running(id);
    expect(
      events
        .slice(before)
        .filter((e) => e.sandboxId === id)
        .map((e) => e.state.status),
    ).toEqual(['stopped', 'starting', 'running']);
    expect((await get(after.socketPath as string, '/')).status).toBe(200);
    // Only the new server's processes remain: one launcher (bubblewrap's and the launcher's lines).
    const launchers = processesMentioning(path.join(root, id)).filter((l) => l.includes('vite-launcher') && /^\S*node /.test(l));
    expect(launchers.length).toBe(1);
  }, 60_000);

  itFull('rejects for a sandbox that does not exist', async () => {
    await expect(host.devServer('no-such-sandbox')).rejects.toThrow();
    await expect(host.restartDev('no-such-sandbox')).rejects.toThrow();
  });

  itFull('stops the dev server before cleanup removes the files', async () => {
    const id = 'dev-cleanup';
    await host.ensure(id);
    const port = (await running(id)).socketPath as string;
    await host.cleanup(id);
    expect(statesOf(id).at(-1)).toBe('stopped');
    expect(await socketAccepts(port, 300)).toBe(false);
    expect(processesMentioning(path.join(root, id))).toEqual([]);
  }, 60_000);

  it('stopAll stops every dev server and leaves no process behind; the next call starts again', async () => {
    const ids = ['dev-all-1', 'dev-all-2'];
    for (const id of ids) await host.ensure(id);
    const ports = await Promise.all(ids.map(async (id) => (await running(id)).socketPath as string));
    await host.stopAll();
    for (const port of ports) expect(await socketAccepts(port, 300)).toBe(false);
    for (const id of ids) expect(statesOf(id).at(-1)).toBe('stopped');
    expect(processesMentioning(root)).toEqual([]);
    expect((await host.devServer(ids[0] as string)).status).toBe('starting');
    await running(ids[0] as string);
    await host.stopAll();
  }, 90_000);
});

describe('LocalSandboxHost dev servers: idle stop', () => {
  let root: string;
  let close: () => Promise<void>;
  let host: LocalSandboxHost;

  beforeAll(async () => {
    ({ root, close } = await tempSandboxRoot());
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR, idleStopMs: 1500 });
    await host.prepareTemplate();
  }, 120_000);
  afterAll(async () => {
    await host.stopAll();
    await close();
  });

  it('stops a dev server nobody asked for during idleStopMs; the next call starts it again', async () => {
    const id = 'idle';
    const events: DevServerState[] = [];
    const unsubscribe = host.subscribe((e) => {
      if (e.sandboxId === id) events.push(e.state);
    });
    await host.ensure(id); // a new project's dev server starts with it
    await host.devServer(id);
    const { socketPath } = await waitFor('running', () => events.find((s) => s.status === 'running'));
    // Activity keeps it alive past the idle time.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 500));
      expect((await host.devServer(id)).status).toBe('running');
    }
    const stopped = await waitFor('idle stop', () => events.find((s) => s.status === 'stopped'), 10_000);
    expect(stopped).toMatchObject({ status: 'stopped', socketPath: null });
    expect(stopped.message).toMatch(/without activity/);
    expect(await socketAccepts(socketPath as string, 300)).toBe(false);
    expect(processesMentioning(path.join(root, id))).toEqual([]);
    unsubscribe();
    const again = await host.devServer(id);
    expect(again.status).toBe('starting');
    expect(events.map((s) => s.status)).toEqual(['starting', 'running', 'stopped']); // unsubscribed
  }, 60_000);

  it('the launcher exits when the process that started it dies, even killed outright', async () => {
    const id = 'orphan';
    await host.ensure(id);
    const port = path.join(root, 'orphan.sock');
    // A stand-in for the API: starts the launcher the way the host does (stdin an idle pipe, the
    // listening socket as fd 3, closed on this side once handed over).
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const [sock, ...argv] = process.argv.slice(1);
         const server = require('node:net').createServer();
         server.listen(sock + '.tmp', () => {
           require('node:fs').renameSync(sock + '.tmp', sock);
           require('node:child_process').spawn(process.execPath, argv, { detached: true, stdio: ['pipe', 'inherit', 'ignore', server._handle.fd] });
           server.close();
         });
         setInterval(() => {}, 1000);`,
        port,
        path.resolve(process.cwd(), VITE_LAUNCHER_RELATIVE_PATH),
        'dev',
        path.join(root, id),
        '3',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    parent.stdout.on('data', (c: Buffer) => (out += c.toString()));
    try {
      // Vite's cold start can take long while the whole suite runs on two cores.
      await waitFor('launcher ready', () => (out.includes('KILN_DEV_SERVER_READY') ? true : undefined), 60_000);
      expect(await socketAccepts(port)).toBe(true);
    } finally {
      parent.kill('SIGKILL');
    }
    try {
      await waitFor('launcher gone', async () => ((await socketAccepts(port, 200)) ? undefined : true), 10_000);
      // The port closes a moment before the process is gone (slower on a busy machine).
      await waitFor('launcher process gone', () => (processesMentioning(path.join(root, id)).length === 0 ? true : undefined), 10_000);
    } finally {
      // Should the launcher have outlived its parent, end it here (by pid) rather than leak it.
      for (const line of processesMentioning(path.join(root, id), true)) process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    }
  }, 100_000);
});
