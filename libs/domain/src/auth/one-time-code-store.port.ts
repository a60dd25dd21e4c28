import type { CodePurpose, OneTimeCode } from './one-time-code.js';
import type { EmailAddress } from './email-address.js';

export type IssueCodeOutcome = { readonly kind: 'issued' } | { readonly kind: 'cooling_down'; readonly retryAfterMs: number };

export interface ConsumeCodeRequest {
  readonly email: EmailAddress;
  /** The purposes the verification type accepts, each with the digest the presented code would have. */
  readonly candidates: readonly { readonly purpose: CodePurpose; readonly codeHash: string }[];
  readonly now: Date;
  readonly maxFailedAttempts: number;
}

export type ConsumeCodeOutcome = { readonly kind: 'accepted'; readonly code: OneTimeCode } | { readonly kind: 'rejected' };

/**
 * One-time codes, at most one per (email, purpose). Every method is one atomic step (one SQL
 * statement or one transaction with a row lock), so concurrent requests cannot accept a code
 * twice, lose a failed try, or both pass the cooldown.
 */
export interface OneTimeCodeStore {
  /**
   * Stores `code`, replacing the code of the same (email, purpose) — unless that one was issued
   * less than `cooldownMs` before `code.issuedAt`: then nothing changes and the caller learns
   * how long to wait.
   */
  issue(code: OneTimeCode, cooldownMs: number): Promise<IssueCodeOutcome>;
  /**
   * Among the live codes (isLive) of the address for the candidate purposes: if one's digest
   * equals its candidate digest it is marked consumed and returned; otherwise each of them
   * counts one failed try.
   */
  consume(request: ConsumeCodeRequest): Promise<ConsumeCodeOutcome>;
  /** Withdraws a code whose mail could not be sent, so it neither verifies nor holds the cooldown. */
  discard(id: string): Promise<void>;
  /** Housekeeping: deletes codes that expired before `before`; answers how many. */
  purgeExpired(before: Date): Promise<number>;
}
