import { accessSync, constants, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChromiumSiteScreenshotter } from './chromium-site-screenshotter.adapter.js';
import { removeReadOnlyTree } from './hosting-paths.js';
import { LocalHostingProvider } from './local-hosting-provider.adapter.js';
import { decodePng, PNG_SIGNATURE } from './testing/png.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BWRAP = '/usr/bin/bwrap';
const BLUE = [0x33, 0x66, 0xcc];
const GREEN = [0x22, 0xaa, 0x55];

/** Pids of Chromium processes started by a capture under `runtimeDir` (their ancestor's command names it). */
async function capturedChromiums(runtimeDir: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (!cmd.startsWith('/usr/lib/chromium/chromium')) continue;
    for (let pid = Number(name), hops = 0; pid > 1 && hops < 12; hops += 1) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      pid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      if ((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes(runtimeDir)) {
        out.push(Number(name));
        break;
      }
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ChromiumSiteScreenshotter: Debian Chromium in bubblewrap', () => {
  let base: string;
  let hostingRoot: string;
  let runtimeDir: string;
  let listener: Server;
  let port: number;
  let shots: ChromiumSiteScreenshotter;
  /** Every request that reached the host's listener (none may). */
  const seen: string[] = [];

  const publish = async (host: string, files: Record<string, string>) => {
    const dist = path.join(base, `src-${host}`, 'dist');
    await mkdir(dist, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dist, name), text);
    const builder = { buildForRelease: async () => ({ exitCode: 0, timedOut: false, log: '', projectDir: path.dirname(dist), outputDir: 'dist' }) };
    const provider = new LocalHostingProvider({ hostingRoot, builder });
    const id = host.split('.')[0] as string;
    expect((await provider.buildRelease({ sandboxId: id, projectId: id, releaseId: `${id}-1` })).kind).toBe('built');
    await provider.activate({ slug: id, releaseId: `${id}-1`, hosts: [host] });
  };
  const page = (colour: string, body = '') => `<!doctype html><html><body style="margin:0;background:${colour}">${body}</body></html>`;

  beforeAll(async () => {
    for (const [what, p] of [['Chromium', CHROMIUM], ['bubblewrap', BWRAP]]) {
      try {
        accessSync(p as string, constants.X_OK);
      } catch {
        throw new Error(`No ${what} at ${p}: install Debian's (\`apt-get install -y chromium bubblewrap\`; .ci/run installs them).`);
      }
    }
    base = await mkdtemp(path.join(tmpdir(), 'kiln-shots-'));
    // The jail runs as nobody: the runtime folders given must be passable from the top.
    await chmod(base, 0o711);
    hostingRoot = path.join(base, 'hosting');
    runtimeDir = path.join(base, 'run');
    listener = createServer((req, res) => {
      seen.push(`${req.headers.host ?? ''}${req.url ?? ''}`);
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' });
      res.end('LEAK');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;

    await publish('garden.apps.localhost', { 'index.html': page('#22aa55'), 'dot.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>' });
    // The attacker's page: synchronous XHRs to the host's listener (which answers anyone, CORS
    // included) and images from another published site and public names (images load cross-origin
    // without CORS, and the load event waits for them). Blue when its own file loads and nothing
    // else does; red otherwise. A WebSocket and a plain image try the listener too.
    const probe = `
<p id="out" style="position:absolute;left:0;top:0;margin:0;font:10px monospace;color:#fff"></p>
<img src="http://127.0.0.1:${port}/leak-img" style="display:none">
<script>
  const results = {};
  const xhr = (name, url, expected) => {
    const x = new XMLHttpRequest();
    try { x.open('GET', url, false); x.send(); results[name] = x.status === 200 && x.responseText === expected ? 'reached' : 'blocked ' + x.status; }
    catch (e) { results[name] = 'blocked'; }
  };
  xhr('own', '/own.txt', 'own');
  xhr('ip', 'http://127.0.0.1:${port}/leak-ip', 'LEAK');
  xhr('localhost', 'http://localhost:${port}/leak-name', 'LEAK');
  xhr('ipv6', 'http://[::1]:${port}/leak-v6', 'LEAK');
  xhr('public-ip', 'http://93.184.215.14/', 'LEAK');
  try { new WebSocket('ws://127.0.0.1:${port}/leak-ws'); } catch {}
  let pending = 0;
  const img = (name, url) => {
    pending += 1;
    const i = new Image();
    i.onload = () => { results[name] = 'reached'; pending -= 1; };
    i.onerror = () => { results[name] = 'blocked'; pending -= 1; };
    i.src = url;
    document.body.appendChild(i);
  };
  img('other-site', 'http://garden.apps.localhost/dot.svg');
  img('other-site-tls', 'https://garden.apps.localhost/dot.svg');
  img('public-name', 'http://example.com/favicon.ico');
  img('public-tls', 'https://www.google.com/favicon.ico');
  window.addEventListener('load', () => {
    const ok = pending === 0 && results.own === 'reached' && Object.entries(results).every(([k, v]) => k === 'own' || v.startsWith('blocked'));
    document.body.style.background = ok ? '#3366cc' : '#cc0000';
    document.getElementById('out').textContent = JSON.stringify(results);
    window.results = results;
  });
</script>`;
    await publish('pantry.apps.localhost', { 'index.html': page('#888888', probe), 'own.txt': 'own' });
    await publish('slow.apps.localhost', { 'index.html': page('#3366cc', '<script>const t = Date.now(); while (Date.now() - t < 2500);</script>') });
    await publish('hang.apps.localhost', { 'index.html': page('#3366cc', '<script>while (true);</script>') });
    shots = new ChromiumSiteScreenshotter({ hostingRoot, runtimeDir, executablePath: CHROMIUM, timeoutMs: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await shots?.close();
    listener?.closeAllConnections();
    await new Promise((r) => listener?.close(r));
    if (base) {
      await removeReadOnlyTree(hostingRoot);
      await rm(base, { recursive: true, force: true });
    }
  });

  const expectColour = (png: Uint8Array, colour: number[]) => {
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([1280, 800]);
    for (const [x, y] of [[640, 400], [1279, 799], [17, 700], [1200, 40]] as const) expect(image.pixel(x, y)).toEqual(colour);
  };

  it('is isolated here', async () => {
    expect(await shots.isolation()).toEqual({ isolated: true, limits: expect.stringMatching(/^cgroup v[12]|^no cgroups/) });
  });

  it('renders the site, over http and https, each in a browser of its own', async () => {
    expectColour(await shots.capture('http://garden.apps.localhost:3000/'), GREEN);
    expectColour(await shots.capture('https://garden.apps.localhost/'), GREEN);
    expect(shots.launches).toBe(2);
  }, 60_000);

  it('lets the page reach nothing but its own site: not the host, another site, or a public name', async () => {
    seen.length = 0;
    const png = await shots.capture('http://pantry.apps.localhost/');
    // Blue only when the page's own file loaded and every other attempt failed (red otherwise).
    expectColour(png, BLUE);
    await sleep(300);
    expect(seen).toEqual([]);
  }, 60_000);

  it('runs Chromium as an unprivileged host uid, without capabilities, in namespaces of its own', async () => {
    const capture = shots.capture('http://slow.apps.localhost/');
    let pids: number[] = [];
    for (let i = 0; i < 80 && pids.length === 0; i += 1) {
      await sleep(50);
      pids = await capturedChromiums(runtimeDir);
    }
    expect(pids.length).toBeGreaterThan(0);
    const own = { net: await readlink('/proc/self/ns/net'), user: await readlink('/proc/self/ns/user'), pid: await readlink('/proc/self/ns/pid') };
    for (const pid of pids) {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
      if (status === null) continue; // a helper process that ended meanwhile
      const uids = /^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number) ?? [];
      expect(uids.length).toBe(4);
      for (const uid of uids) expect(uid).not.toBe(0);
      expect(/^CapEff:\s+(\S+)/m.exec(status)?.[1]).toMatch(/^0+$/);
      for (const ns of ['net', 'user', 'pid'] as const) expect(await readlink(`/proc/${pid}/ns/${ns}`)).not.toBe(own[ns]);
    }
    expectColour(await capture, BLUE);
  }, 60_000);

  it('kills the browser when a capture times out', async () => {
    const quick = new ChromiumSiteScreenshotter({ hostingRoot, runtimeDir: path.join(base, 'run-quick'), executablePath: CHROMIUM, timeoutMs: 3000 });
    try {
      const capture = quick.capture('http://hang.apps.localhost/');
      const outcome = capture.then(
        () => 'captured',
        (e: Error) => e.message,
      );
      let pids: number[] = [];
      for (let i = 0; i < 80 && pids.length === 0; i += 1) {
        await sleep(50);
        pids = await capturedChromiums(path.join(base, 'run-quick'));
      }
      expect(pids.length).toBeGreaterThan(0);
      expect(await outcome).toMatch(/Timeout/);
      const alive = async () => pids.filter((pid) => existsSync(`/proc/${pid}`));
      for (let i = 0; i < 40 && (await alive()).length > 0; i += 1) await sleep(50);
      expect(await alive()).toEqual([]);
    } finally {
      await quick.close();
    }
  }, 60_000);

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:1/', 'http://[::1]/', 'http://unknown.apps.localhost/', 'http://user:pw@pantry.apps.localhost/', 'not a url', 'http://../'])(
    'refuses to open %s',
    async (url) => {
      await expect(shots.capture(url)).rejects.toThrow(/published site|Not a URL|credentials/);
    },
  );

  it('rejects a page that does not load, and captures nothing once closed', async () => {
    const broken = new ChromiumSiteScreenshotter({ hostingRoot, executablePath: CHROMIUM, timeoutMs: 5000 });
    try {
      await expect(broken.capture('http://garden.apps.localhost/missing/page.png')).rejects.toThrow('The site answered 404');
    } finally {
      await broken.close();
    }
    await expect(broken.capture('http://garden.apps.localhost/')).rejects.toThrow('closed');
  }, 60_000);

  it('without bubblewrap: refuses by default, or warns loudly and still reaches only the site', async () => {
    const refusing = new ChromiumSiteScreenshotter({ hostingRoot, executablePath: CHROMIUM, bwrapPath: null });
    await expect(refusing.capture('http://garden.apps.localhost/')).rejects.toThrow(/refused: the browser cannot be isolated .*bubblewrap is not installed/);
    await refusing.close();
    const warnings: string[] = [];
    const warning = new ChromiumSiteScreenshotter({ hostingRoot, executablePath: CHROMIUM, bwrapPath: null, unisolated: 'warn', onWarning: (m) => warnings.push(m) });
    try {
      seen.length = 0;
      expectColour(await warning.capture('http://pantry.apps.localhost/'), BLUE);
      expect(seen).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('SCREENSHOTS ARE NOT ISOLATED');
    } finally {
      await warning.close();
    }
  }, 60_000);
});
