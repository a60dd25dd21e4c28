import type { DomainError } from '../shared/domain-error.js';
import type { RandomSource } from '../shared/random.port.js';
import { type Result, err, ok } from '../shared/result.js';

/** SPEC §5: uppercase letters and digits without the look-alikes I, O, 0 and 1. */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 6;
export const MAX_REFERRAL_CODE_ATTEMPTS = 10;

const PATTERN = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/;

declare const brand: unique symbol;
export type ReferralCode = string & { readonly [brand]: 'ReferralCode' };

export type InvalidReferralCode = DomainError<'REFERRALS.INVALID_CODE'> & { readonly input: string };

/** Accepts a code as typed (spaces trimmed, lower case raised) if it has the right shape. */
export function parseReferralCode(input: string): Result<ReferralCode, InvalidReferralCode> {
  const code = input.trim().toUpperCase();
  if (!PATTERN.test(code)) {
    return err({ code: 'REFERRALS.INVALID_CODE', input, message: 'This referral code is not valid' });
  }
  return ok(code as ReferralCode);
}

export function randomReferralCode(random: RandomSource): ReferralCode {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i += 1) {
    code += REFERRAL_CODE_ALPHABET[random.nextInt(REFERRAL_CODE_ALPHABET.length)];
  }
  return code as ReferralCode;
}

/** SPEC §2: the share link is the site origin plus a ref query parameter. */
export function shareLink(origin: string, code: ReferralCode): string {
  return `${origin.replace(/\/+$/, '')}/?ref=${code}`;
}
