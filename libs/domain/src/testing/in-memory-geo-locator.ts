import type { GeoLocation, GeoLocationError, GeoLocator } from '../geo/geo-locator.port.js';
import { type Result, err, ok } from '../shared/result.js';

/**
 * A GeoLocator from a table of addresses. An address not in the table is located at `fallback`
 * (null country by default, as a lookup service reports a private address); `failWith` makes
 * every lookup fail as a broken service would.
 */
export class InMemoryGeoLocator implements GeoLocator {
  private readonly byIp = new Map<string, GeoLocation>();
  fallback: GeoLocation = { countryCode: null };
  failWith: GeoLocationError | null = null;
  readonly lookups: (string | undefined)[] = [];

  place(ip: string, location: GeoLocation): this {
    this.byIp.set(ip, location);
    return this;
  }

  async locate(clientIp?: string): Promise<Result<GeoLocation, GeoLocationError>> {
    this.lookups.push(clientIp);
    if (this.failWith !== null) return err(this.failWith);
    return ok((clientIp === undefined ? undefined : this.byIp.get(clientIp)) ?? this.fallback);
  }
}
