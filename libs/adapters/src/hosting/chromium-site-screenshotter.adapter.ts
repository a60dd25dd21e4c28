import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SiteScreenshotter } from '@kiln/domain';
import type { Browser } from 'playwright-core';
import { installEgressForwarder } from '../sandbox/egress/egress-forwarder.js';
import { BubblewrapJail } from '../sandbox/isolation/bubblewrap-jail.js';
import { CgroupLimits } from '../sandbox/isolation/cgroup-limits.js';
import type { IsolationStatus } from '../sandbox/isolation/isolation-probe.js';
import { isAlive } from '../sandbox/isolation/process-alive.js';
import { type SandboxLimits, sandboxLimits } from '../sandbox/isolation/sandbox-limits.js';
import { captureCertificate } from './capture-certificate.js';
import { ChromiumJail, SCREENSHOT_HOST_UID } from './chromium-jail.js';
import { isValidSiteHost } from './hosting-paths.js';
import { SiteCaptureProxy } from './site-capture-proxy.js';
import { StaticSiteServer } from './static-site-server.js';

/** What one capture's browser may use (its own cgroup): Chromium needs many threads, not much else. */
export const SCREENSHOT_LIMITS: SandboxLimits = sandboxLimits({ memoryBytes: 1024 ** 3, processes: 512, diskBytes: 256 * 1024 ** 2 });

export interface ChromiumSiteScreenshotterOptions {
  /** DATA_DIR/hosting: a capture serves the site from its release there (and only that). */
  readonly hostingRoot: string;
  /** CHROMIUM_PATH: Debian's Chromium by default. */
  readonly executablePath?: string;
  /** bubblewrap; default /usr/bin/bwrap when installed. null: no jail (see `unisolated`). */
  readonly bwrapPath?: string | null;
  /**
   * Without a working jail: 'refuse' (production: every capture rejects, saying why) or 'warn'
   * (development: the browser runs beside Kiln, still only reaching the site through the capture
   * proxy, after a loud warning through `onWarning`). Default 'refuse'.
   */
  readonly unisolated?: 'refuse' | 'warn';
  readonly onWarning?: (message: string) => void;
  /** Where capture scripts, sockets and the jail's /etc live; default a fresh 0711 folder in the system's temp folder, removed on close. Every folder above it must be passable by uid 65534. */
  readonly runtimeDir?: string;
  /** cgroup limits per capture where the host offers them (default true). */
  readonly cgroups?: boolean;
  /** Bound on starting the browser, loading the page and taking the picture (default 15 s each). */
  readonly timeoutMs?: number;
  readonly viewport?: { readonly width: number; readonly height: number };
  /** The egress forwarder's source (default the checkout's, relative to the working folder). */
  readonly forwarderSource?: string;
}

/** Flags for a headless Chromium on a server (NOTES.md): no GPU, no background traffic to Google. */
const FLAGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];
/** The browser's only environment (the forwarder adds its proxy variables inside the jail). */
const BROWSER_ENV = { PATH: '/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8' };
const CLOSE_GRACE_MS = 5000;

type Mode = { readonly kind: 'jail'; readonly jail: ChromiumJail } | { readonly kind: 'unisolated'; readonly reason: string };

/**
 * Screenshots of published sites (docs/hosting.md "Screenshots") with Debian's Chromium through
 * playwright-core. The page is a stranger's and an AI's code, so each capture gets a browser of
 * its own in the same kind of jail project code runs in (ChromiumJail: bubblewrap, no network, an
 * unprivileged uid, its own cgroup), started for the capture and killed after it, whose only way
 * out is a proxy Kiln serves for that capture (SiteCaptureProxy): it answers the one site from its
 * release folder and nothing else. 1280×800 by default, `load` awaited, one capture at a time.
 */
export class ChromiumSiteScreenshotter implements SiteScreenshotter {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private setup: Promise<{ readonly dir: string; readonly mode: Mode; readonly cgroups: Promise<CgroupLimits> | null }> | undefined;
  private certificate: Promise<{ cert: string; key: string }> | undefined;
  private warned = false;
  private readonly sites: StaticSiteServer;
  /** How many browsers were started (one per capture). */
  launches = 0;

  constructor(private readonly options: ChromiumSiteScreenshotterOptions) {
    this.sites = new StaticSiteServer({ hostingRoot: options.hostingRoot, isSiteHost: () => false, cacheBytes: 1 });
  }

  /** Whether captures run jailed here, and if not why (for the start-up log; captures check it too). */
  async isolation(): Promise<IsolationStatus> {
    const { mode, cgroups } = await this.prepare();
    if (mode.kind === 'unisolated') return { isolated: false, reason: mode.reason };
    const limits = await cgroups?.then((c) => c.describe()).catch(() => undefined);
    return limits === undefined ? { isolated: true } : { isolated: true, limits };
  }

  async capture(url: string): Promise<Uint8Array> {
    const target = this.checkUrl(url);
    const run = this.queue.then(() => this.shoot(target));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for the capture under way, then removes the runtime folder (if made here) and the cgroups. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    const setup = await this.setup?.catch(() => null);
    if (!setup) return;
    await (await setup.cgroups?.catch(() => null))?.close();
    if (this.options.runtimeDir === undefined) await rm(setup.dir, { recursive: true, force: true });
  }

  private checkUrl(url: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('Not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('Only http(s) URLs of published sites are captured');
    if (parsed.username !== '' || parsed.password !== '') throw new Error('URLs with credentials are not captured');
    const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
    if (isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !isValidSiteHost(host) || !this.sites.serves(host)) throw new Error(`${host} is not a published site`);
    return parsed;
  }

  private async shoot(target: URL): Promise<Uint8Array> {
    if (this.closed) throw new Error('The screenshotter is closed');
    const { dir: runtimeDir, mode } = await this.prepare();
    if (mode.kind === 'unisolated') this.unisolated(mode.reason);
    const host = target.hostname.toLowerCase().replace(/\.$/, '');
    const id = randomBytes(6).toString('hex');
    const dir = path.join(runtimeDir, 'captures', id);
    const socketDir = path.join(dir, 'socket');
    await mkdir(socketDir, { recursive: true, mode: 0o711 });
    const proxy = new SiteCaptureProxy({ hostingRoot: this.options.hostingRoot, host, tls: await this.tls() });
    const groupId = `screenshot-${id}`;
    let pidFile: string | null = null;
    try {
      let executablePath = this.options.executablePath ?? '/usr/bin/chromium';
      let args = FLAGS;
      if (mode.kind === 'jail') {
        const socketPath = path.join(socketDir, 'proxy.sock');
        await proxy.listenOnSocket(socketPath);
        const jailed = await mode.jail.prepare(dir, groupId, socketPath);
        executablePath = jailed.executable;
        pidFile = jailed.pidFile;
      } else {
        const port = await proxy.listenOnLoopback();
        args = [...FLAGS, `--proxy-server=http://127.0.0.1:${port}`, '--proxy-bypass-list=<-loopback>'];
      }
      return await this.inBrowser(executablePath, args, mode.kind === 'jail', target);
    } finally {
      await this.kill(pidFile, dir);
      if (mode.kind === 'jail') await mode.jail.release(groupId);
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async inBrowser(executablePath: string, args: readonly string[], jailed: boolean, target: URL): Promise<Uint8Array> {
    const timeout = this.options.timeoutMs ?? 15_000;
    // Loaded on first use: the API imports this module whether or not screenshots are taken.
    const { chromium } = await import('playwright-core');
    this.launches += 1;
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      // In the jail Chromium's own sandbox works (nested user namespaces, seccomp); beside Kiln as root it cannot start.
      chromiumSandbox: jailed || process.getuid?.() !== 0,
      args: [...args],
      env: BROWSER_ENV,
      timeout,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    try {
      const context = await browser.newContext({
        viewport: { ...(this.options.viewport ?? { width: 1280, height: 800 }) },
        serviceWorkers: 'block',
        acceptDownloads: false,
        // Only the capture proxy is reachable, and it answers only this site: its throwaway certificate is the site's.
        ignoreHTTPSErrors: true,
      });
      const page = await context.newPage();
      const response = await page.goto(target.href, { waitUntil: 'load', timeout });
      if (!response || !response.ok()) throw new Error(`The site answered ${response?.status() ?? 'nothing'}`);
      return new Uint8Array(await page.screenshot({ type: 'png', timeout, animations: 'disabled' }));
    } finally {
      await closeWithin(browser, CLOSE_GRACE_MS);
    }
  }

  /** The jailed browser's process group, if anything of it is left (checked to be ours: its command names the capture's folder). */
  private async kill(pidFile: string | null, dir: string): Promise<void> {
    if (pidFile === null) return;
    const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
    if (!Number.isInteger(pid) || pid <= 1 || !isAlive(pid)) return;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!cmdline.includes(dir)) return;
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }

  private unisolated(reason: string): void {
    if (this.options.unisolated !== 'warn') throw new Error(`Screenshots are refused: the browser cannot be isolated on this machine (${reason})`);
    if (this.warned) return;
    this.warned = true;
    const line = '!'.repeat(100);
    (this.options.onWarning ?? console.warn)(
      `\n${line}\n  SCREENSHOTS ARE NOT ISOLATED: ${reason}.\n  Published sites' code runs in a Chromium beside Kiln (it reaches only the site, through the capture proxy). Development only.\n${line}`,
    );
  }

  private tls(): Promise<{ cert: string; key: string }> {
    this.certificate ??= captureCertificate();
    this.certificate.catch(() => (this.certificate = undefined));
    return this.certificate;
  }

  private prepare(): Promise<{ dir: string; mode: Mode; cgroups: Promise<CgroupLimits> | null }> {
    this.setup ??= (async () => {
      const dir = this.options.runtimeDir === undefined ? await mkdtemp(path.join(tmpdir(), 'kiln-screenshots-')) : path.resolve(this.options.runtimeDir);
      await mkdir(dir, { recursive: true });
      // The jail's uid must pass through (its /etc files, the forwarder, a capture's socket), never list.
      await chmod(dir, 0o711);
      const bwrapPath = this.options.bwrapPath === undefined ? (existsSync('/usr/bin/bwrap') ? '/usr/bin/bwrap' : null) : this.options.bwrapPath;
      if (bwrapPath === null) return { dir, mode: { kind: 'unisolated', reason: 'bubblewrap is not installed (apt-get install bubblewrap)' }, cgroups: null } as const;
      const cgroups = this.options.cgroups === false ? Promise.resolve(CgroupLimits.none(SCREENSHOT_LIMITS)) : CgroupLimits.detect(SCREENSHOT_LIMITS);
      cgroups.catch(() => undefined);
      const jail = new ChromiumJail({
        jail: new BubblewrapJail({ bwrapPath, runtimeDir: path.join(dir, 'etc') }),
        limits: SCREENSHOT_LIMITS,
        cgroups,
        chromiumPath: this.options.executablePath ?? '/usr/bin/chromium',
        forwarder: () => installEgressForwarder(dir, this.options.forwarderSource),
        hostUid: process.getuid?.() === 0 ? SCREENSHOT_HOST_UID : null,
      });
      const status = await jail.probe();
      const mode: Mode = status.isolated ? { kind: 'jail', jail } : { kind: 'unisolated', reason: status.reason };
      return { dir, mode, cgroups };
    })();
    return this.setup;
  }
}

/** Closes the browser, giving up after `ms` (the process group is killed after anyway). */
async function closeWithin(browser: Browser, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([browser.close().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
