// GET / POST /api/pricing/currency: the checkout currency as the server decided it (SPEC §7, §9).
// The browser does not guess it: the server looked the caller's IP up and, for a signed-in person,
// stored it in preferred_currency, which checkout charges, so the price shown is the price charged.
import type { Currency } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export interface CheckoutCurrencyDto {
  readonly currency: Currency;
  readonly country_code: string | null;
  /** SPEC §8's location message when the server's lookup failed (the currency is then USD). */
  readonly error: string | null;
}

/** What a page shows while the server has not answered, or when it cannot be reached (SPEC §8 fallback). */
export const USD_FALLBACK: CheckoutCurrencyDto = { currency: 'USD', country_code: null, error: null };

export interface CurrencyApi {
  /** `signedIn`: decide and store it in the profile (POST); otherwise only ask (GET, no token). */
  decide(signedIn: boolean): Promise<CheckoutCurrencyDto>;
}

@injectable()
export class HttpCurrencyApi implements CurrencyApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  decide(signedIn: boolean): Promise<CheckoutCurrencyDto> {
    return signedIn
      ? this.http.post<CheckoutCurrencyDto>('/api/pricing/currency')
      : this.http.get<CheckoutCurrencyDto>('/api/pricing/currency', { anonymous: true });
  }
}
