import type { Profile } from './profile.entity.js';

/** Where profiles live (table `profiles`). */
export interface ProfileRepository {
  findById(id: string): Promise<Profile | null>;
  findByReferralCode(code: string): Promise<Profile | null>;
  /**
   * Inserts the profile unless one with its id exists; returns the stored profile and whether
   * this call created it. Concurrent sign-ins of one user create exactly one profile.
   */
  insertIfAbsent(profile: Profile): Promise<{ profile: Profile; created: boolean }>;
  /** Replaces a stored profile; fails with "Record with id {id} not found" when absent. */
  update(profile: Profile): Promise<void>;
  /**
   * Sets `referredBy` only if it is still empty (a conditional write, never read-then-write).
   * Returns false when the profile already has a referrer.
   */
  setReferrerIfUnset(profileId: string, referrerId: string, now: Date): Promise<boolean>;
  /** How many profiles name this user as their referrer. */
  countReferredBy(referrerId: string): Promise<number>;
}
