import { type Currency, checkoutCurrencyFor } from '../shared/money.js';
import type { Result } from '../shared/result.js';
import type { GeoLocation, GeoLocationError } from './geo-locator.port.js';

export interface CheckoutLocale {
  readonly currency: Currency;
  /** Upper-cased and trimmed; null when the location is unknown. */
  readonly countryCode: string | null;
}

/** SPEC §8, §9: INR only for a detected IN; any failure falls back to USD with country null. */
export function currencyForLocation(location: Result<GeoLocation, GeoLocationError>): CheckoutLocale {
  if (!location.ok) return { currency: 'USD', countryCode: null };
  const code = location.value.countryCode?.trim().toUpperCase() ?? '';
  return { currency: checkoutCurrencyFor(code), countryCode: code === '' ? null : code };
}
