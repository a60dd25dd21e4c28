// SPEC §7 "before checkout, a public IP geolocation lookup picks the currency". The product runs
// offline here, so the default adapter reads the region of the browser's language (en-IN → IN);
// an IP lookup adapter can replace it behind the same domain port (GeoLocator).
import {
  type GeoLocation,
  type GeoLocationError,
  type GeoLocator,
  type Result,
  err,
  locationDetectionFailed,
  ok,
} from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type BrowserEnvironment, UI_TYPES } from '../app/ui-ports';

/** The web's GeoApi port is the domain's GeoLocator. */
export type GeoApi = GeoLocator;

/** 'en-IN' → 'IN', 'hi_in' → 'IN', 'zh-Hant-TW' → 'TW'; null when the tag names no region. */
export function regionOfLanguageTag(tag: string): string | null {
  const parts = tag.trim().split(/[-_]/).slice(1);
  const region = parts.find((part) => /^[A-Za-z]{2}$/.test(part) || /^\d{3}$/.test(part));
  return region === undefined || /^\d{3}$/.test(region) ? null : region.toUpperCase();
}

@injectable()
export class LanguageRegionGeoApi implements GeoApi {
  constructor(@inject(UI_TYPES.Environment) private readonly env: BrowserEnvironment) {}

  async locate(): Promise<Result<GeoLocation, GeoLocationError>> {
    for (const tag of this.env.languages) {
      const countryCode = regionOfLanguageTag(tag);
      if (countryCode !== null) return ok({ countryCode });
    }
    return err(locationDetectionFailed());
  }
}
