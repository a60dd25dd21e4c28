import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import type { RandomSource } from '../shared/random.port.js';
import { CODE_DIGITS, CODE_MAX_FAILED_ATTEMPTS, CODE_TTL_MS } from './auth.constants.js';
import type { EmailAddress } from './email-address.js';
import { randomDigits } from './random-token.js';
import type { SecretHasher } from './secret-hasher.port.js';

/** Why a code was mailed. */
export type CodePurpose = 'signup' | 'magiclink' | 'recovery' | 'email_change';
export const CODE_PURPOSES: readonly CodePurpose[] = ['signup', 'magiclink', 'recovery', 'email_change'];

/** The `type` of POST /verify (email types only; Kiln has no phone sign-in). */
export type VerificationType = 'signup' | 'email' | 'magiclink' | 'recovery' | 'email_change';
export const VERIFICATION_TYPES: readonly VerificationType[] = ['signup', 'email', 'magiclink', 'recovery', 'email_change'];

/**
 * Which codes each verification type accepts. `email` is what auth-js's verifyOtp({ type:
 * 'email' }) sends for a code from signInWithOtp: a sign-in code, or the confirmation code of
 * an account that /otp created.
 */
export const PURPOSES_FOR: Readonly<Record<VerificationType, readonly CodePurpose[]>> = Object.freeze({
  signup: ['signup'],
  email: ['signup', 'magiclink'],
  magiclink: ['magiclink', 'signup'],
  recovery: ['recovery'],
  email_change: ['email_change'],
});

/**
 * A one-time code as stored: only its digest, never the digits. There is at most one per
 * (email, purpose); issuing another replaces it. A decoy (userId and codeHash null) is
 * recorded for an address without an account so that the mail cooldown answers exactly as it
 * would for a real one — it can never be verified.
 */
export interface OneTimeCode {
  readonly id: string;
  /** Where it was mailed (for an email change, the new address). */
  readonly email: EmailAddress;
  readonly purpose: CodePurpose;
  readonly userId: string | null;
  readonly codeHash: string | null;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  readonly failedAttempts: number;
  readonly consumedAt: Date | null;
}

/**
 * The stored digest of a code. The address and purpose are part of the input, so a digest is
 * only good for the one address and purpose it was issued for. (Six digits are a small space;
 * what protects them is the ten-minute lifetime and the five-try limit, not the digest.)
 */
export function codeDigest(hasher: SecretHasher, email: EmailAddress, purpose: CodePurpose, code: string): string {
  return hasher.digest(`kiln-otp-v1:${purpose}:${email}:${code}`);
}

/** True for text that can be a code at all (six ASCII digits). */
export function looksLikeCode(token: unknown): token is string {
  return typeof token === 'string' && new RegExp(`^[0-9]{${CODE_DIGITS}}$`).test(token);
}

/** A code that can still be verified at `now`. */
export function isLive(code: OneTimeCode, now: Date, maxFailedAttempts = CODE_MAX_FAILED_ATTEMPTS): boolean {
  return (
    code.codeHash !== null &&
    code.consumedAt === null &&
    code.failedAttempts < maxFailedAttempts &&
    now.getTime() < code.expiresAt.getTime()
  );
}

export interface IssuedCode {
  /** The digits to mail, or null for a decoy. */
  readonly code: string | null;
  readonly record: OneTimeCode;
}

/** A fresh code for `email` (a decoy when `userId` is null), drawn from the injected RandomSource. */
export function newCode(
  deps: { random: RandomSource; ids: IdGenerator; hasher: SecretHasher; clock: Clock },
  input: { email: EmailAddress; purpose: CodePurpose; userId: string | null },
): IssuedCode {
  const now = deps.clock.now();
  const code = input.userId === null ? null : randomDigits(deps.random, CODE_DIGITS);
  const record: OneTimeCode = Object.freeze({
    id: deps.ids.next(),
    email: input.email,
    purpose: input.purpose,
    userId: input.userId,
    codeHash: code === null ? null : codeDigest(deps.hasher, input.email, input.purpose, code),
    issuedAt: now,
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    failedAttempts: 0,
    consumedAt: null,
  });
  return { code, record };
}
