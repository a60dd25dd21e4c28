import type { ReferralCode } from './referral-code.js';

/** Tells whether a referral code is already held by a profile. */
export interface ReferralCodes {
  isTaken(code: ReferralCode): Promise<boolean>;
}
