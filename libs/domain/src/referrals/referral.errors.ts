import type { DomainError } from '../shared/domain-error.js';
export type { InvalidReferralCode } from './referral-code.js';

export type CodeGenerationFailed = DomainError<'REFERRALS.CODE_GENERATION_FAILED'> & { readonly attempts: number };
export type UnknownReferralCode = DomainError<'REFERRALS.UNKNOWN_CODE'>;
export type SelfReferral = DomainError<'REFERRALS.SELF_REFERRAL'>;
export type AlreadyReferred = DomainError<'REFERRALS.ALREADY_REFERRED'>;
export type CircularReferral = DomainError<'REFERRALS.CIRCULAR'>;

export const codeGenerationFailed = (attempts: number): CodeGenerationFailed => ({
  code: 'REFERRALS.CODE_GENERATION_FAILED',
  attempts,
  message: 'Unable to generate unique referral code',
});
export const unknownReferralCode = (): UnknownReferralCode => ({
  code: 'REFERRALS.UNKNOWN_CODE',
  message: 'No account has this referral code',
});
export const selfReferral = (): SelfReferral => ({
  code: 'REFERRALS.SELF_REFERRAL',
  message: 'You cannot use your own referral code',
});
export const alreadyReferred = (): AlreadyReferred => ({
  code: 'REFERRALS.ALREADY_REFERRED',
  message: 'A referral code has already been applied to this account',
});
export const circularReferral = (): CircularReferral => ({
  code: 'REFERRALS.CIRCULAR',
  message: 'You cannot use the referral code of someone you referred',
});
