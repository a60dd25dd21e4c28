import type { Factor, FactorChallenge } from './factor.entity.js';

export type InsertFactorOutcome = 'inserted' | 'name_taken';

/** What `recordVerification` did. */
export type VerificationOutcome =
  /** Challenge marked answered, factor verified, its last used step moved to `step`. */
  | 'recorded'
  /** Another request answered this challenge, or used this step or a newer one, first. */
  | 'already_used';

/**
 * The second factors and their challenges. `recordVerification` is the replay guard: it
 * checks and writes in one step (a conditional UPDATE), so two requests racing with one code
 * cannot both succeed.
 */
export interface FactorStore {
  listForUser(userId: string): Promise<readonly Factor[]>;
  findById(id: string): Promise<Factor | null>;
  /** `name_taken` when a non-empty friendly name is already used by another factor of the user. */
  insert(factor: Factor): Promise<InsertFactorOutcome>;
  /** Removes the user's unverified factors (an abandoned enrolment) and their challenges. */
  deleteUnverified(userId: string): Promise<void>;
  /** Removes the factor and its challenges; false when the user had no such factor. */
  delete(factorId: string, userId: string): Promise<boolean>;
  createChallenge(challenge: FactorChallenge): Promise<void>;
  findChallenge(id: string): Promise<FactorChallenge | null>;
  /**
   * Atomically, only if the challenge is still unanswered and the factor's last used step is
   * null or older than `step`: marks the challenge answered at `at`, the factor verified, and
   * its last used step `step`.
   */
  recordVerification(input: { readonly factorId: string; readonly challengeId: string; readonly step: number; readonly at: Date }): Promise<VerificationOutcome>;
}
