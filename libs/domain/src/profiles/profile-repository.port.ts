import type { Profile } from './profile.entity.js';

export type RecordReferrerOutcome =
  | { readonly outcome: 'recorded' }
  | { readonly outcome: 'already_referred'; readonly referredBy: string }
  | { readonly outcome: 'circular' };

/** Where profiles live (table `profiles`). */
export interface ProfileRepository {
  /** A profile marked deleted is not found (account deletion hides it everywhere). */
  findById(id: string): Promise<Profile | null>;
  /** A deleted profile's code no longer resolves (but stays taken, so it is never handed out again). */
  findByReferralCode(code: string): Promise<Profile | null>;
  /**
   * Hides the profile from every lookup from now on (account deletion). The row is kept for the
   * retention period in docs/decisions.md; marking it again keeps the first time.
   */
  markDeleted(id: string, at: Date): Promise<void>;
  /**
   * Inserts the profile unless one with its id exists; returns the stored profile and whether
   * this call created it. Concurrent sign-ins of one user create exactly one profile.
   */
  insertIfAbsent(profile: Profile): Promise<{ profile: Profile; created: boolean }>;
  /** Replaces a stored profile; fails with "Record with id {id} not found" when absent. */
  update(profile: Profile): Promise<void>;
  /**
   * Records `referrerId` as the referee's referrer in one atomic step, only if the referee has
   * no referrer yet and the referrer was not referred by the referee (both rows are checked
   * under one lock, so two people applying each other's codes at once cannot both succeed).
   * Returns what happened and the referee's referrer afterwards.
   */
  recordReferrer(refereeId: string, referrerId: string, now: Date): Promise<RecordReferrerOutcome>;
  /** How many profiles name this user as their referrer. */
  countReferredBy(referrerId: string): Promise<number>;
}
