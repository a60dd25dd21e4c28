import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { geoLocatorContract } from '@kiln/domain/contracts';
import { IpWhoIsGeoLocator } from './ipwhois-geo-locator.adapter.js';
import { FakeIpWhoIsServer } from './testing/fake-ipwhois-server.js';

/** A port nothing listens on: the lookup cannot connect. */
const CLOSED = 'http://127.0.0.1:9/{ip}';

geoLocatorContract('IpWhoIsGeoLocator against a local ipwho.is', async () => {
  const server = await new FakeIpWhoIsServer().start();
  return {
    locator: new IpWhoIsGeoLocator({ urlTemplate: server.urlTemplate, timeoutMs: 2000 }),
    unreachable: new IpWhoIsGeoLocator({ urlTemplate: CLOSED, timeoutMs: 2000 }),
    place: async (ip, code, country, city) => void server.place(ip, code, country, city),
    breakWith: async (failure) => {
      server.failWith = failure;
    },
    repair: async () => {
      server.failWith = null;
    },
    close: () => server.stop(),
  };
});

describe('IpWhoIsGeoLocator wire details', () => {
  let server: FakeIpWhoIsServer;
  let locator: IpWhoIsGeoLocator;

  beforeAll(async () => {
    server = await new FakeIpWhoIsServer().start();
    locator = new IpWhoIsGeoLocator({ urlTemplate: server.urlTemplate, timeoutMs: 2000 });
  });
  afterAll(() => server.stop());

  it('asks for JSON about the bare IPv4 address of an IPv6-mapped one', async () => {
    server.place('49.36.10.1', 'IN', 'India', 'Delhi');
    expect(await locator.locate('::ffff:49.36.10.1')).toMatchObject({ ok: true, value: { countryCode: 'IN' } });
    expect(server.requests.at(-1)).toEqual({ path: '/49.36.10.1', accept: 'application/json' });
  });

  it("reports a reserved address (ipwho.is: success false) as 'Location detection failed'", async () => {
    expect(await locator.locate('127.0.0.1')).toEqual({ ok: false, error: { code: 'GEO.DETECTION_FAILED', message: 'Location detection failed' } });
  });

  it('does not ask the service about itself when the visitor has no address', async () => {
    const before = server.requests.length;
    expect((await locator.locate(undefined)).ok).toBe(false);
    expect(server.requests.length).toBe(before);
  });

  it("reports a reply that is not JSON as 'Failed to detect location'", async () => {
    const html = new IpWhoIsGeoLocator({ urlTemplate: 'http://x/{ip}', timeoutMs: 2000 }, async () => new Response('<html>', { status: 200 }));
    expect(await html.locate('8.8.8.8')).toEqual({ ok: false, error: { code: 'GEO.UNAVAILABLE', message: 'Failed to detect location' } });
  });

  it('gives a null country for a code that is not two letters', async () => {
    const odd = new IpWhoIsGeoLocator({ urlTemplate: 'http://x/{ip}', timeoutMs: 2000 }, async () => Response.json({ success: true, country_code: '' }));
    expect(await odd.locate('8.8.8.8')).toEqual({ ok: true, value: { countryCode: null } });
  });
});
