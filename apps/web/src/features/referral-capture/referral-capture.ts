import { parseReferralCode } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type KeyValueStorage, type ReferralOutcome, STORAGE_KEYS, type Toasts, TYPES } from '../../app/ports';

export const REFERRAL_PARAM = 'ref';
export const WELCOME_BONUS_TITLE = 'Welcome Bonus!';
export const welcomeBonusText = (bonus: number): string => `You received ${bonus} bonus credits for signing up with a referral link!`;

/**
 * SPEC §2/§4 referral links: `?ref=CODE` on any URL is validated (@kiln/domain), kept in local
 * storage and removed from the address; after sign-in the stored code goes to
 * POST /api/profile/ensure, is cleared, and an applied referral shows the 'Welcome Bonus!' toast.
 */
@injectable()
export class ReferralCapture {
  constructor(
    @inject(TYPES.Storage) private readonly storage: KeyValueStorage,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
  ) {}

  /**
   * Keeps a valid `ref` of an address (absolute, or path + query + fragment) and returns the
   * path + query + fragment without it (the caller replaces the history entry), or null when
   * there is no `ref` parameter. An invalid code is dropped from the address but not kept; a
   * valid one replaces any code kept earlier.
   */
  capture(href: string): string | null {
    const url = new URL(href, 'http://localhost');
    if (!url.searchParams.has(REFERRAL_PARAM)) return null;
    const raw = url.searchParams.get(REFERRAL_PARAM) ?? '';
    const code = parseReferralCode(raw);
    if (code.ok) this.storage.set(STORAGE_KEYS.referralCode, code.value);
    url.searchParams.delete(REFERRAL_PARAM);
    return `${url.pathname}${url.search}${url.hash}`;
  }

  /** The code waiting for the next sign-in, if it is (still) well-formed. */
  pendingCode(): string | null {
    const stored = this.storage.get(STORAGE_KEYS.referralCode);
    if (stored === null) return null;
    const code = parseReferralCode(stored);
    if (!code.ok) {
      this.storage.remove(STORAGE_KEYS.referralCode);
      return null;
    }
    return code.value;
  }

  /** The server has processed the sign-in: clear the code either way, celebrate if applied. */
  settle(outcome: ReferralOutcome | null): void {
    this.storage.remove(STORAGE_KEYS.referralCode);
    if (outcome?.applied) {
      this.toasts.show({ title: WELCOME_BONUS_TITLE, description: welcomeBonusText(outcome.bonus), variant: 'success' });
    }
  }
}
