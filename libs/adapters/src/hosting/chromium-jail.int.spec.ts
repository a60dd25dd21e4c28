import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { installEgressForwarder } from '../sandbox/egress/egress-forwarder.js';
import { BubblewrapJail } from '../sandbox/isolation/bubblewrap-jail.js';
import { CgroupLimits } from '../sandbox/isolation/cgroup-limits.js';
import { SCREENSHOT_LIMITS } from './chromium-site-screenshotter.adapter.js';
import { ChromiumJail, SCREENSHOT_HOST_UID } from './chromium-jail.js';
import { removeReadOnlyTree } from './hosting-paths.js';
import { SiteCaptureProxy } from './site-capture-proxy.js';
import { publishStaticSites } from './testing/static-sites.js';

/**
 * What a page's code could do if it took over the browser entirely (a renderer and sandbox
 * exploit): the jail's "Chromium" here is a Node script that tries to get out, run exactly as a
 * capture runs Chromium (same script, cgroup, setpriv, bubblewrap, forwarder, proxy socket).
 */
const COMPROMISED = `
import fs from 'node:fs';
import net from 'node:net';
import http from 'node:http';
const out = {};
const tryRead = (p) => { try { fs.readFileSync(p); return 'read'; } catch (e) { return e.code; } };
out.uid = process.getuid();
out.caps = fs.readFileSync('/proc/self/status', 'utf8').match(/^CapEff:\\s+(\\S+)/m)[1];
out.shadow = tryRead('/etc/shadow');
out.hosting = tryRead(process.env.KILN_HOSTING_ROOT + '/hosts/site.apps.localhost/index.html');
const list = (p) => { try { return fs.readdirSync(p).sort().join(','); } catch (e) { return e.code; } };
out.runDir = list(process.env.KILN_RUN_DIR);
out.captures = list(process.env.KILN_RUN_DIR + '/captures');
out.otherCapture = tryRead(process.env.KILN_RUN_DIR + '/captures/two/chromium.sh');
out.writeRoot = (() => { try { fs.writeFileSync('/usr/evil', 'x'); return 'written'; } catch (e) { return e.code; } })();
out.processes = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).length;
out.fds34 = [3, 4].map((fd) => { try { fs.fstatSync(fd); return 'open'; } catch (e) { return e.code; } }).join(',');
const connect = (options) => new Promise((resolve) => {
  const s = net.connect(options);
  s.setTimeout(2000, () => { s.destroy(); resolve('timeout'); });
  s.once('connect', () => { s.destroy(); resolve('connected'); });
  s.once('error', (e) => resolve(e.code));
});
out.hostListener = await connect({ host: '127.0.0.1', port: Number(process.env.KILN_LISTENER_PORT) });
out.publicAddress = await connect({ host: '1.1.1.1', port: 80 });
const proxy = new URL(process.env.HTTP_PROXY);
const viaProxy = (target, host) => new Promise((resolve) => {
  const req = http.request({ host: proxy.hostname, port: proxy.port, path: target, headers: { host } }, (res) => { res.resume(); resolve(res.statusCode); });
  req.once('error', (e) => resolve(e.code));
  req.end();
});
out.proxySite = await viaProxy('http://site.apps.localhost/', 'site.apps.localhost');
out.proxyListener = await viaProxy('http://127.0.0.1:' + process.env.KILN_LISTENER_PORT + '/', '127.0.0.1:' + process.env.KILN_LISTENER_PORT);
out.proxySmuggled = await viaProxy('http://site.apps.localhost/', '127.0.0.1:' + process.env.KILN_LISTENER_PORT);
out.proxyOtherSite = await viaProxy('http://other.apps.localhost/', 'other.apps.localhost');
process.stdout.write(JSON.stringify(out));
`;

describe('ChromiumJail, with the browser taken over', () => {
  let base: string;
  let hostingRoot: string;
  let listener: Server;
  let port: number;
  const seen: string[] = [];
  let cgroups: Promise<CgroupLimits>;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'kiln-shot-jail-'));
    await chmod(base, 0o711);
    hostingRoot = path.join(base, 'hosting');
    await publishStaticSites(base, hostingRoot, ['site.apps.localhost', 'other.apps.localhost']);
    listener = createServer((req, res) => {
      seen.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
      res.end('LEAK');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    cgroups = CgroupLimits.detect(SCREENSHOT_LIMITS);
  });

  afterAll(async () => {
    await (await cgroups)?.close();
    listener?.closeAllConnections();
    await new Promise((r) => listener?.close(r));
    if (base) {
      await removeReadOnlyTree(hostingRoot);
      await rm(base, { recursive: true, force: true });
    }
  });

  it('gets nothing but the one site: no host file, no host network, no other site, no privilege', async () => {
    const runDir = path.join(base, 'run');
    await mkdir(runDir, { mode: 0o711 });
    // An ES module (.mjs) with Node as its interpreter, where Chromium would be.
    const fake = path.join(base, 'fake-chromium', 'chromium.mjs');
    await mkdir(path.dirname(fake), { mode: 0o755 });
    await writeFile(fake, `#!${process.execPath}\n${COMPROMISED}`, { mode: 0o755 });
    const jail = new ChromiumJail({
      jail: new BubblewrapJail({ bwrapPath: '/usr/bin/bwrap', runtimeDir: path.join(runDir, 'etc') }),
      limits: SCREENSHOT_LIMITS,
      cgroups,
      chromiumPath: fake,
      forwarder: () => installEgressForwarder(runDir),
      hostUid: process.getuid?.() === 0 ? SCREENSHOT_HOST_UID : null,
    });
    expect(await jail.probe()).toEqual({ isolated: true });
    const dir = path.join(runDir, 'captures', 'one');
    await mkdir(path.join(runDir, 'captures', 'two'), { recursive: true, mode: 0o711 });
    await writeFile(path.join(runDir, 'captures', 'two', 'chromium.sh'), 'another capture', { mode: 0o644 });
    await mkdir(path.join(dir, 'socket'), { recursive: true, mode: 0o711 });
    const proxy = new SiteCaptureProxy({ hostingRoot, host: 'site.apps.localhost' });
    await proxy.listenOnSocket(path.join(dir, 'socket', 'proxy.sock'));
    try {
      const { executable } = await jail.prepare(dir, 'capture-one', path.join(dir, 'socket', 'proxy.sock'));
      const env = { PATH: '/usr/bin:/bin', KILN_HOSTING_ROOT: hostingRoot, KILN_RUN_DIR: runDir, KILN_LISTENER_PORT: String(port) };
      const child = spawn(executable, ['--headless'], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise((resolve) => child.once('exit', resolve));
      expect({ code, stderr: stderr.slice(-500) }).toEqual({ code: 0, stderr: '' });
      const r = JSON.parse(stdout) as Record<string, unknown>;
      expect(r).toEqual({
        uid: 1000,
        caps: '0000000000000000',
        shadow: 'ENOENT',
        hosting: 'ENOENT',
        // Only the mount points of what it was given (its socket's folder, the forwarder): not the
        // jail's /etc files, not another capture's script or socket.
        runDir: 'captures,runtime',
        captures: 'one',
        otherCapture: 'ENOENT',
        writeRoot: 'EROFS',
        // Its own PID namespace: bubblewrap's init, the shell-less forwarder and itself.
        processes: expect.any(Number),
        fds34: 'open,open',
        hostListener: 'ECONNREFUSED',
        publicAddress: 'ENETUNREACH',
        proxySite: 200,
        proxyListener: 403,
        proxySmuggled: 403,
        proxyOtherSite: 403,
      });
      expect(r.processes).toBeLessThanOrEqual(4);
      expect(seen).toEqual([]);
      expect(proxy.refused).toHaveLength(3);
    } finally {
      await jail.release('capture-one');
      await proxy.close();
    }
  }, 60_000);
});
