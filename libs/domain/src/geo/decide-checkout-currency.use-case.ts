import type { Clock } from '../shared/clock.port.js';
import type { Currency } from '../shared/money.js';
import { err } from '../shared/result.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { currencyForLocation } from './currency-for-location.js';
import { type GeoLocation, type GeoLocationError, type GeoLocator, locationUnavailable } from './geo-locator.port.js';
import type { Result } from '../shared/result.js';

/** What the pricing page and the upgrade dialog show, and what checkout then charges. */
export interface CheckoutCurrencyDecision {
  readonly currency: Currency;
  /** Upper-cased; null when the location is unknown or the lookup failed. */
  readonly countryCode: string | null;
  /** SPEC §8's location message when the lookup failed (the currency is then the USD fallback). */
  readonly error: string | null;
}

/**
 * SPEC §7/§9: the server, not the browser, picks the checkout currency from an IP lookup (INR only
 * for IN, else USD; any failure → USD with country null). For a signed-in person the decision is
 * stored in the profile's preferred_currency, which StartCheckout and BuyAddOnCredits charge, so
 * the price shown and the price charged come from the same place.
 */
export class DecideCheckoutCurrency {
  constructor(
    private readonly geo: GeoLocator,
    private readonly profiles: ProfileRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly userId: string | null; readonly clientIp: string | undefined }): Promise<CheckoutCurrencyDecision> {
    let location: Result<GeoLocation, GeoLocationError>;
    try {
      location = await this.geo.locate(input.clientIp);
    } catch {
      // The port promises a Result; an adapter bug still must not cost the visitor the page.
      location = err(locationUnavailable());
    }
    const locale = currencyForLocation(location);
    const decision: CheckoutCurrencyDecision = { ...locale, error: location.ok ? null : location.error.message };
    if (input.userId !== null) await this.store(input.userId, decision.currency);
    return decision;
  }

  private async store(userId: string, currency: Currency): Promise<void> {
    const profile = await this.profiles.findById(userId);
    if (profile === null || profile.preferredCurrency === currency) return;
    await this.profiles.update({ ...profile, preferredCurrency: currency, updatedAt: this.clock.now() });
  }
}
