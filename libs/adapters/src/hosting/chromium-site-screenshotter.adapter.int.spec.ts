import { accessSync, constants } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChromiumSiteScreenshotter, isInternalAddress } from './chromium-site-screenshotter.adapter.js';
import { decodePng, PNG_SIGNATURE } from './testing/png.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Published sites by Host: each page paints itself one colour; `/leak` records who asked for it. */
describe('ChromiumSiteScreenshotter with Debian Chromium', () => {
  let server: Server;
  let port: number;
  let shots: ChromiumSiteScreenshotter;
  const seen: string[] = [];
  const colours: Record<string, string> = { 'pantry.apps.localhost': '#3366cc', 'garden.apps.localhost': '#22aa55' };

  beforeAll(async () => {
    try {
      accessSync(CHROMIUM, constants.X_OK);
    } catch {
      throw new Error(`No Chromium at ${CHROMIUM}: install Debian's with \`apt-get install -y chromium\` (.ci/run installs it) or set CHROMIUM_PATH.`);
    }
    server = createServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      seen.push(`${host}${req.url}`);
      const colour = colours[host];
      if (!colour || req.url !== '/') {
        res.statusCode = 404;
        res.end('not found');
        return;
      }
      res.setHeader('content-type', 'text/html');
      // The page also tries to reach an internal service by IP and by a localhost name.
      res.end(
        `<!doctype html><html><body style="margin:0;background:${colour}"><img style="opacity:0;position:absolute" src="http://127.0.0.1:${port}/leak-ip"><script>fetch('http://localhost:${port}/leak-name').catch(()=>{})</script></body></html>`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    shots = new ChromiumSiteScreenshotter({ executablePath: CHROMIUM, isPublishedHost: (host) => host in colours, timeoutMs: 20_000 });
  });

  afterAll(async () => {
    await shots?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('returns a 1280×800 PNG of what the site renders, reusing one browser', async () => {
    for (const [host, hex] of Object.entries(colours)) {
      const png = await shots.capture(`http://${host}:${port}/`);
      expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      const image = decodePng(png);
      expect([image.width, image.height]).toEqual([1280, 800]);
      const expected = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      for (const [x, y] of [[0, 0], [640, 400], [1279, 799], [17, 700]] as const) expect(image.pixel(x, y)).toEqual(expected);
    }
    expect(shots.launches).toBe(1);
  });

  it("never lets the page reach internal addresses or localhost names", async () => {
    seen.length = 0;
    await shots.capture(`http://pantry.apps.localhost:${port}/`);
    expect(seen).toEqual([`pantry.apps.localhost/`]);
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', `http://127.0.0.1:${1}/`, 'http://[::1]/', 'http://unknown.apps.localhost/', 'http://user:pw@pantry.apps.localhost/', 'not a url'])(
    'refuses to open %s',
    async (url) => {
      await expect(shots.capture(url)).rejects.toThrow(/published site|Not a URL|credentials/);
    },
  );

  it('rejects a page that does not load', async () => {
    const broken = new ChromiumSiteScreenshotter({ executablePath: CHROMIUM, isPublishedHost: () => true, timeoutMs: 5000 });
    try {
      await expect(broken.capture(`http://garden.apps.localhost:${port}/missing`)).rejects.toThrow('The site answered 404');
    } finally {
      await broken.close();
    }
    await expect(broken.capture(`http://garden.apps.localhost:${port}/`)).rejects.toThrow('closed');
  });
});

describe('isInternalAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'nonsense'])('%s is internal', (a) => {
    expect(isInternalAddress(a)).toBe(true);
  });
  it.each(['93.184.216.34', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (a) => {
    expect(isInternalAddress(a)).toBe(false);
  });
});
