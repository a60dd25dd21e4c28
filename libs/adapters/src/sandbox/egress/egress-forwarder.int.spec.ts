import { spawn } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_BWRAP_PATH } from '../local-sandbox-host.adapter.js';
import { echoServer, tempSocketDir } from '../testing/egress-test-servers.js';
import { EGRESS_FORWARDER_RELATIVE_PATH, installEgressForwarder, throughEgressForwarder } from './egress-forwarder.js';
import { RegistryEgressProxy } from './registry-egress-proxy.js';

const hasBwrap = existsSync(DEFAULT_BWRAP_PATH);
const FORWARDER = path.resolve(EGRESS_FORWARDER_RELATIVE_PATH);
/** Where PostgreSQL listens on the host (NOTES.md): the service a sandbox must never reach. */
const HOST_POSTGRES_PORT = 5432;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(argv: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * bubblewrap as the install sandbox will be: its own network namespace (loopback only), an
 * unprivileged uid without capabilities, and a minimal view: the runtime (/usr, read-only), the
 * files in `readOnly`, the folders in `writable`, a private /tmp. No /etc but what is listed,
 * so no resolv.conf or hosts: whatever npm resolves, it resolves through the proxy.
 */
function sandboxed(
  argv: readonly string[],
  { readOnly = [], writable = [], cwd = '/' }: { readOnly?: readonly string[]; writable?: readonly string[]; cwd?: string },
): string[] {
  // Debian's merged /usr: /bin, /lib, /lib64 and /sbin are links into it.
  const rootLinks = ['bin', 'lib', 'lib64', 'sbin'].flatMap((name) => {
    const at = `/${name}`;
    if (!existsSync(at)) return [];
    return lstatSync(at).isSymbolicLink() ? ['--symlink', `usr/${name}`, at] : ['--ro-bind', at, at];
  });
  return [
    DEFAULT_BWRAP_PATH,
    '--unshare-all', '--unshare-user', '--uid', '1000', '--gid', '1000', '--cap-drop', 'ALL',
    '--die-with-parent', '--new-session',
    '--ro-bind', '/usr', '/usr', ...rootLinks,
    '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp',
    ...readOnly.flatMap((p) => ['--ro-bind', p, p]),
    ...writable.flatMap((p) => ['--bind', p, p]),
    '--chdir', cwd,
    '--',
    ...argv,
  ]; // prettier-ignore
}

/** The certificate file the host's npm is told about (this machine's registry needs it). */
function caFiles(): string[] {
  const named = [process.env.NODE_EXTRA_CA_CERTS, process.env.npm_config_cafile, process.env.NPM_CONFIG_CAFILE, process.env.SSL_CERT_FILE];
  return [...new Set(named.filter((file): file is string => file !== undefined && file !== '' && existsSync(file)))];
}

/** What npm's installer passes on (dependency-cache.ts): PATH, HOME, LANG and npm's own settings. */
function installEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/nonexistent', LANG: 'C.UTF-8' };
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_config_.*|NPM_CONFIG_.*|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/.test(name)) env[name] = value;
  }
  return env;
}

/** Runs inside the namespace: CONNECT through the proxy variables, then direct connections that must fail. */
const PROBE = `
const net = require('node:net');
const [target, ...direct] = process.argv.slice(1);
const proxy = new URL(process.env.npm_config_https_proxy);
const attempt = (port) => new Promise((resolve) => {
  const s = net.connect(port, '127.0.0.1');
  s.once('connect', () => { s.destroy(); resolve('connected'); });
  s.once('error', (e) => resolve(e.code));
});
const tunnel = () => new Promise((resolve) => {
  const s = net.connect(Number(proxy.port), proxy.hostname);
  let got = '';
  s.on('data', (d) => {
    got += d.toString();
    if (got.startsWith('HTTP/1.1 200') && got.includes('\\r\\n\\r\\n') && !got.includes('echo:')) s.write('ping\\n');
    if (got.includes('echo:ping\\n') || !got.startsWith('HTTP/1.1 200')) { s.destroy(); resolve(got); }
  });
  s.once('error', (e) => resolve(e.code));
  s.write('CONNECT ' + target + ' HTTP/1.1\\r\\nHost: ' + target + '\\r\\n\\r\\n');
});
(async () => {
  const result = { env: { proxy: process.env.npm_config_proxy, https: process.env.HTTPS_PROXY, noproxy: process.env.npm_config_noproxy }, tunnel: await tunnel(), direct: {} };
  for (const port of direct) result.direct[port] = await attempt(Number(port));
  console.log(JSON.stringify(result));
  process.exit(Number(process.env.PROBE_EXIT ?? 0));
})();
`;

describe('egress forwarder', () => {
  it('wraps an argument vector: node, the forwarder, the socket, --, the command', () => {
    expect(throughEgressForwarder(['npm', 'install'], { forwarder: '/cache/runtime/f.mjs', socketPath: '/run/egress.sock' })).toEqual([
      process.execPath,
      '/cache/runtime/f.mjs',
      '/run/egress.sock',
      '--',
      'npm',
      'install',
    ]);
    expect(() => throughEgressForwarder([], { forwarder: 'f', socketPath: 's' })).toThrow(/No command/);
  });

  it('is copied into the cache under a content-addressed name, once', async () => {
    const cache = await tempSocketDir();
    try {
      const first = await installEgressForwarder(cache.dir);
      expect(path.dirname(first)).toBe(path.join(cache.dir, 'runtime'));
      expect(path.basename(first)).toMatch(/^egress-forwarder-[0-9a-f]{16}\.mjs$/);
      expect(await readFile(first, 'utf8')).toBe(await readFile(FORWARDER, 'utf8'));
      expect(await installEgressForwarder(cache.dir)).toBe(first);
      expect(await readdir(path.join(cache.dir, 'runtime'))).toEqual([path.basename(first)]);
    } finally {
      await cache.close();
    }
  });

  it('refuses to run without a socket, a -- and a command', async () => {
    const result = await run([process.execPath, FORWARDER, '/nowhere.sock', 'npm'], { PATH: process.env.PATH });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/usage: node egress-forwarder\.mjs/);
  });

  (hasBwrap ? describe : describe.skip)('inside a network namespace (bubblewrap)', () => {
    let echo: Awaited<ReturnType<typeof echoServer>>;
    let folder: Awaited<ReturnType<typeof tempSocketDir>>;
    let proxy: RegistryEgressProxy;
    let socketDir: string;
    let forwarder: string;

    beforeAll(async () => {
      echo = await echoServer();
      folder = await tempSocketDir();
      socketDir = path.join(folder.dir, 'egress');
      proxy = new RegistryEgressProxy({ socketPath: path.join(socketDir, 'egress.sock'), registry: `https://localhost:${echo.port}/`, allowLoopback: true, upstreamProxy: null });
      await proxy.start();
      forwarder = await installEgressForwarder(path.join(folder.dir, 'cache'));
    });
    afterAll(async () => {
      await proxy.stop();
      await echo.close();
      await folder.close();
    });

    const probe = (env: NodeJS.ProcessEnv = {}) =>
      run(
        sandboxed(
          throughEgressForwarder(['node', '-e', PROBE, `localhost:${echo.port}`, String(echo.port), String(HOST_POSTGRES_PORT)], {
            forwarder,
            socketPath: proxy.socketPath,
            node: 'node',
          }),
          { readOnly: [socketDir, forwarder] },
        ),
        { PATH: '/usr/bin:/bin', HTTPS_PROXY: 'http://10.9.9.9:3128', NO_PROXY: '*', ...env },
      );

    it('reaches the allowed registry through the proxy, and nothing on the host directly', async () => {
      // Outside the namespace the fake registry (and, on these machines, PostgreSQL) answers:
      // the refusals below come from the namespace.
      await expect(connectable(echo.port)).resolves.toBe(true);

      const result = await probe();
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const seen = JSON.parse(result.stdout) as { env: Record<string, string>; tunnel: string; direct: Record<string, string> };
      expect(seen.env.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(seen.env.https).toBe(seen.env.proxy); // the host's own proxy variables are replaced
      expect(seen.env.noproxy).toBe('');
      expect(seen.tunnel).toMatch(/^HTTP\/1\.1 200 [\s\S]*echo:ping\n$/);
      expect(seen.direct).toEqual({ [echo.port]: 'ECONNREFUSED', [HOST_POSTGRES_PORT]: 'ECONNREFUSED' });
    });

    it("passes on the command's exit code, and 128 + the signal when it is killed", async () => {
      expect((await probe({ PROBE_EXIT: '7' })).code).toBe(7);
      const killed = await run(
        sandboxed(throughEgressForwarder(['sh', '-c', 'kill -KILL $$'], { forwarder, socketPath: proxy.socketPath, node: 'node' }), { readOnly: [socketDir, forwarder] }),
        { PATH: '/usr/bin:/bin' },
      );
      expect(killed.code).toBe(128 + 9);
      const missing = await run(
        sandboxed(throughEgressForwarder(['no-such-command'], { forwarder, socketPath: proxy.socketPath, node: 'node' }), { readOnly: [socketDir, forwarder] }),
        { PATH: '/usr/bin:/bin' },
      );
      expect(missing.code).toBe(127);
      expect(missing.stderr).toMatch(/no-such-command: spawn no-such-command ENOENT/);
    });
  });

  (hasBwrap ? describe : describe.skip)('a real npm install in a network namespace (bubblewrap)', () => {
    let folder: Awaited<ReturnType<typeof tempSocketDir>>;
    let proxy: RegistryEgressProxy;
    let socketDir: string;
    let forwarder: string;
    const refused: string[] = [];

    beforeAll(async () => {
      folder = await tempSocketDir();
      socketDir = path.join(folder.dir, 'egress');
      // registry.npmjs.org:443 only; its addresses must be public. The host's upstream proxy, if any, is used.
      proxy = new RegistryEgressProxy({ socketPath: path.join(socketDir, 'egress.sock'), registry: 'https://registry.npmjs.org/', onRefused: (why) => refused.push(why) });
      await proxy.start();
      forwarder = await installEgressForwarder(path.join(folder.dir, 'cache'));
    });
    afterAll(async () => {
      await proxy.stop();
      await folder.close();
    });

    async function install(name: string, dependencies: Record<string, string>): Promise<{ run: Run; dir: string }> {
      const dir = path.join(folder.dir, name);
      const npmCache = path.join(folder.dir, `${name}-npm-cache`);
      await mkdir(dir);
      await mkdir(npmCache);
      await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'kiln-dependencies', private: true, dependencies }));
      const npm = ['npm', 'install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-update-notifier', '--logs-max=0', '--fetch-retries=0', '--cache', npmCache, '--prefix', dir];
      const argv = sandboxed(throughEgressForwarder(npm, { forwarder, socketPath: proxy.socketPath, node: 'node' }), {
        readOnly: [socketDir, forwarder, ...caFiles()],
        writable: [dir, npmCache],
        cwd: dir,
      });
      return { run: await run(argv, installEnv(), 45_000), dir };
    }

    it('installs mitt@3.0.1 from registry.npmjs.org through the proxy', async () => {
      const { run: result, dir } = await install('ok', { mitt: '3.0.1' });
      expect(`${result.stdout}${result.stderr}`).toMatch(/added 1 package/);
      expect(result.code).toBe(0);
      const manifest = JSON.parse(await readFile(path.join(dir, 'node_modules', 'mitt', 'package.json'), 'utf8')) as { version: string };
      expect(manifest.version).toBe('3.0.1');
      expect(proxy.openedCount).toBeGreaterThan(0);
      expect(refused).toEqual([]);
    }, 60_000);

    it.each([
      ['another host', 'https://example.com/evil.tgz', 'CONNECT example.com:443'],
      ['a host service over plain HTTP', 'http://127.0.0.1:6379/evil.tgz', 'GET http://127.0.0.1:6379/'],
    ])('refuses a dependency served from %s', async (_label, url, refusal) => {
      const { run: result } = await install(`elsewhere-${refused.length}`, { evil: url });
      expect(result.code).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toMatch(/403/);
      expect(refused.some((why) => why.startsWith(refusal))).toBe(true);
    }, 60_000);
  });
});

function connectable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
