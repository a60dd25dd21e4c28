import type { DomainError } from '../shared/domain-error.js';

// Codes and messages are GoTrue's (internal/api/mfa.go), so auth-js users read what they know.

export type FactorNotFound = DomainError<'MFA.FACTOR_NOT_FOUND'>;
export const factorNotFound = (): FactorNotFound => ({ code: 'MFA.FACTOR_NOT_FOUND', message: 'Factor not found' });

export type FactorNameConflict = DomainError<'MFA.FACTOR_NAME_CONFLICT'>;
export const factorNameConflict = (name: string): FactorNameConflict => ({
  code: 'MFA.FACTOR_NAME_CONFLICT',
  message: `A factor with the friendly name "${name}" for this user already exists`,
});

export type TooManyFactors = DomainError<'MFA.TOO_MANY_FACTORS'>;
export const tooManyFactors = (): TooManyFactors => ({
  code: 'MFA.TOO_MANY_FACTORS',
  message: 'Maximum number of verified factors reached, unenroll to continue',
});

/** Enrolling another factor, or removing a verified one, needs a session that proved a factor. */
export type InsufficientAal = DomainError<'MFA.INSUFFICIENT_AAL'>;
export const insufficientAal = (message: string): InsufficientAal => ({ code: 'MFA.INSUFFICIENT_AAL', message });

export type ChallengeNotFound = DomainError<'MFA.CHALLENGE_NOT_FOUND'>;
export const challengeNotFound = (): ChallengeNotFound => ({
  code: 'MFA.CHALLENGE_NOT_FOUND',
  message: 'Challenge not found',
});

export type ChallengeExpired = DomainError<'MFA.CHALLENGE_EXPIRED'>;
export const challengeExpired = (id: string): ChallengeExpired => ({
  code: 'MFA.CHALLENGE_EXPIRED',
  message: `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
});

/** Wrong code, a code already used, or a challenge already answered: one error. */
export type MfaVerificationFailed = DomainError<'MFA.VERIFICATION_FAILED'>;
export const mfaVerificationFailed = (): MfaVerificationFailed => ({
  code: 'MFA.VERIFICATION_FAILED',
  message: 'Invalid TOTP code entered',
});

export type MfaValidationFailed = DomainError<'MFA.VALIDATION_FAILED'>;
export const mfaValidationFailed = (message: string): MfaValidationFailed => ({ code: 'MFA.VALIDATION_FAILED', message });

export type MfaError =
  | FactorNotFound
  | FactorNameConflict
  | TooManyFactors
  | InsufficientAal
  | ChallengeNotFound
  | ChallengeExpired
  | MfaVerificationFailed
  | MfaValidationFailed;
