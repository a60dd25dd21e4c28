import { MFA_CHALLENGE_TTL_SECONDS, TOTP_ALGORITHM, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from './mfa.constants.js';

export type FactorStatus = 'unverified' | 'verified';

/**
 * A second factor of an account (GoTrue's `auth.mfa_factors`). Only TOTP for now. It becomes
 * `verified` when a first code is accepted; only verified factors raise the next level to aal2.
 */
export interface Factor {
  readonly id: string;
  readonly userId: string;
  /** '' when the client gave none. */
  readonly friendlyName: string;
  readonly factorType: 'totp';
  readonly status: FactorStatus;
  /** The TOTP secret, base32. Adapters keep it encrypted at rest; it never leaves the server after enrolment. */
  readonly secret: string;
  /** The newest TOTP step a code was accepted for (replay guard), or null. */
  readonly lastUsedStep: number | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** One attempt to prove a factor: a code must be sent against it before it expires, once. */
export interface FactorChallenge {
  readonly id: string;
  readonly factorId: string;
  readonly createdAt: Date;
  readonly verifiedAt: Date | null;
}

export const isVerifiedFactor = (factor: Pick<Factor, 'status'>): boolean => factor.status === 'verified';

export const challengeExpiresAt = (challenge: Pick<FactorChallenge, 'createdAt'>): Date =>
  new Date(challenge.createdAt.getTime() + MFA_CHALLENGE_TTL_SECONDS * 1000);

export const isChallengeExpired = (challenge: Pick<FactorChallenge, 'createdAt'>, now: Date): boolean =>
  now.getTime() > challengeExpiresAt(challenge).getTime();

/**
 * The otpauth URI authenticator apps read from the QR code (Key URI Format, as GoTrue writes
 * it): `otpauth://totp/Issuer:account?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30`.
 */
export function otpauthUri(input: { readonly secret: string; readonly issuer: string; readonly account: string }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`;
  const query = [
    `algorithm=${TOTP_ALGORITHM}`,
    `digits=${TOTP_DIGITS}`,
    `issuer=${encodeURIComponent(input.issuer)}`,
    `period=${TOTP_PERIOD_SECONDS}`,
    `secret=${input.secret}`,
  ].join('&');
  return `otpauth://totp/${label}?${query}`;
}
