import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GeoLocator } from '../../geo/geo-locator.port.js';

/** Where the locator under test gets its answers (a local lookup server, or memory). */
export interface GeoLocatorHarness {
  readonly locator: GeoLocator;
  /** Makes `ip` resolve to this country (code, name, city). */
  place(ip: string, countryCode: string, country: string, city: string): Promise<void>;
  /** The next lookups fail as the service would: `status` an HTTP error, 'unsuccessful' a reply with success false. */
  breakWith(failure: { status: number } | 'unsuccessful'): Promise<void>;
  /** Back to answering normally. */
  repair(): Promise<void>;
  /** A locator of the same kind whose service cannot be reached at all. */
  readonly unreachable: GeoLocator;
  close?(): Promise<void>;
}

/**
 * The GeoLocator contract (SPEC §7, §8): a located address reports its country code (and the
 * country and city when known); a failure is a Result carrying §8's message, never a rejection,
 * because checkout then falls back to USD rather than failing.
 */
export function geoLocatorContract(name: string, makeHarness: () => Promise<GeoLocatorHarness>): void {
  describe(`GeoLocator contract: ${name}`, () => {
    let h: GeoLocatorHarness;

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('reports the country of an Indian address', async () => {
      await h.place('103.21.124.10', 'IN', 'India', 'Mumbai');
      expect(await h.locator.locate('103.21.124.10')).toEqual({ ok: true, value: { countryCode: 'IN', country: 'India', city: 'Mumbai' } });
    });

    it('keeps different addresses apart', async () => {
      await h.place('8.8.4.4', 'US', 'United States', 'Mountain View');
      await h.place('103.21.124.11', 'IN', 'India', 'Pune');
      expect(await h.locator.locate('8.8.4.4')).toMatchObject({ ok: true, value: { countryCode: 'US' } });
      expect(await h.locator.locate('103.21.124.11')).toMatchObject({ ok: true, value: { countryCode: 'IN', city: 'Pune' } });
    });

    it("answers 'HTTP error! status: {n}' when the service answers an error status", async () => {
      await h.breakWith({ status: 503 });
      try {
        expect(await h.locator.locate('8.8.4.4')).toEqual({
          ok: false,
          error: { code: 'GEO.HTTP_ERROR', message: 'HTTP error! status: 503', status: 503 },
        });
      } finally {
        await h.repair();
      }
    });

    it("answers 'Location detection failed' when the service reports no success", async () => {
      await h.breakWith('unsuccessful');
      try {
        expect(await h.locator.locate('8.8.4.4')).toEqual({ ok: false, error: { code: 'GEO.DETECTION_FAILED', message: 'Location detection failed' } });
      } finally {
        await h.repair();
      }
    });

    it("answers 'Failed to detect location' when the service cannot be reached", async () => {
      expect(await h.unreachable.locate('8.8.4.4')).toEqual({ ok: false, error: { code: 'GEO.UNAVAILABLE', message: 'Failed to detect location' } });
    });
  });
}
