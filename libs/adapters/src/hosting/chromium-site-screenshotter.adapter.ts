import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { SiteScreenshotter } from '@kiln/domain';
import type { Browser, Route } from 'playwright-core';

export interface ChromiumSiteScreenshotterOptions {
  /** Whether a host is a published site's (its Kiln subdomain or an active custom domain): nothing else is ever opened. */
  readonly isPublishedHost: (host: string) => boolean | Promise<boolean>;
  /** CHROMIUM_PATH: Debian's Chromium by default. */
  readonly executablePath?: string;
  /** Bound on loading the page and on taking the picture (default 15 s each). */
  readonly timeoutMs?: number;
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** Flags for a headless Chromium on a server (NOTES.md): no GPU, no background traffic to Google. */
const FLAGS = ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

/** Addresses a page may not reach through a public name (loopback, private, link-local, CGNAT, unspecified). */
const INTERNAL = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) INTERNAL.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) INTERNAL.addSubnet(net, prefix, 'ipv6');

/** Whether a resolved address is one of the server's neighbours rather than the public internet. */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  return family === 0 || INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Screenshots of published sites with Debian's Chromium through playwright-core: a fresh,
 * logged-out context per picture (no cookie, no storage carried between sites), 1280×800 by
 * default. The browser starts on the first capture, is reused, and closes with `close()`.
 * Captures run one at a time: each holds a renderer, and the machine's cores are shared.
 *
 * The page is a stranger's code running on Kiln's server: it may only load its own origin and
 * public names that resolve to public addresses; requests to IP literals, localhost names,
 * internal addresses or other schemes are aborted, so it cannot reach Kiln's internal services
 * (Caddy's admin API, the database, a cloud metadata service). Chromium resolves the name again
 * after the check, so a DNS answer that changes within a second could still slip through.
 */
export class ChromiumSiteScreenshotter implements SiteScreenshotter {
  private browser: Promise<Browser> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** How many browsers were started (the browser is reused across captures). */
  launches = 0;

  constructor(private readonly options: ChromiumSiteScreenshotterOptions) {}

  async capture(url: string): Promise<Uint8Array> {
    const target = await this.checkUrl(url);
    const run = this.queue.then(() => this.shoot(target));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close();
  }

  private async checkUrl(url: string): Promise<URL> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('Not a URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('Only http(s) URLs of published sites are captured');
    if (parsed.username !== '' || parsed.password !== '') throw new Error('URLs with credentials are not captured');
    const host = parsed.hostname.toLowerCase();
    if (isIP(host.replace(/^\[|\]$/g, '')) !== 0 || !(await this.options.isPublishedHost(host))) throw new Error(`${host} is not a published site`);
    return parsed;
  }

  private async shoot(target: URL): Promise<Uint8Array> {
    if (this.closed) throw new Error('The screenshotter is closed');
    const timeout = this.options.timeoutMs ?? 15_000;
    const browser = await this.launch();
    const context = await browser.newContext({
      viewport: { ...(this.options.viewport ?? { width: 1280, height: 800 }) },
      serviceWorkers: 'block',
      acceptDownloads: false,
      // A site's stale service worker or cached login never shows: each picture starts empty.
      storageState: { cookies: [], origins: [] },
    });
    try {
      await context.route('**/*', (route) => this.filter(route, target));
      const page = await context.newPage();
      const response = await page.goto(target.href, { waitUntil: 'load', timeout });
      if (!response || !response.ok()) throw new Error(`The site answered ${response?.status() ?? 'nothing'}`);
      return new Uint8Array(await page.screenshot({ type: 'png', timeout, animations: 'disabled' }));
    } finally {
      await context.close().catch(() => undefined);
    }
  }

  private async filter(route: Route, target: URL): Promise<void> {
    const request = new URL(route.request().url());
    if (request.protocol === 'data:' || request.protocol === 'blob:' || request.origin === target.origin) return route.continue();
    const host = request.hostname.toLowerCase();
    const publicName = (request.protocol === 'http:' || request.protocol === 'https:') && isIP(host.replace(/^\[|\]$/g, '')) === 0 && host !== 'localhost' && !host.endsWith('.localhost') && host.includes('.');
    // A public name that resolves inside (127.0.0.1.nip.io, a rebinding trick) is refused too.
    const addresses = publicName ? await lookup(host, { all: true }).catch(() => []) : [];
    const reachable = addresses.length > 0 && addresses.every((a) => !isInternalAddress(a.address));
    return reachable ? route.continue() : route.abort('blockedbyclient');
  }

  private launch(): Promise<Browser> {
    if (this.browser === null) {
      this.launches += 1;
      const root = process.getuid?.() === 0;
      // Loaded on first use: the API imports this module whether or not screenshots are taken.
      const starting = import('playwright-core').then(({ chromium }) =>
        chromium.launch({
          executablePath: this.options.executablePath ?? '/usr/bin/chromium',
          headless: true,
          // Chromium's sandbox cannot start as root; the page still runs in its own renderer process.
          chromiumSandbox: !root,
          args: FLAGS,
          timeout: 30_000,
        }),
      );
      this.browser = starting;
      starting.then(
        (browser) => browser.on('disconnected', () => this.browser === starting && (this.browser = null)),
        () => this.browser === starting && (this.browser = null),
      );
    }
    return this.browser;
  }
}
