import type { Profile } from '../profiles/profile.entity.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { Pause } from './in-memory-credit-ledger.js';

export class RecordNotFoundError extends Error {
  constructor(id: string) {
    super(`Record with id ${id} not found`);
  }
}

/** Profiles in a Map; each method is atomic between its pauses, like a single SQL statement. */
export class InMemoryProfileRepository implements ProfileRepository {
  private readonly rows = new Map<string, Profile>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async findById(id: string): Promise<Profile | null> {
    await this.pause();
    return this.rows.get(id) ?? null;
  }

  async findByReferralCode(code: string): Promise<Profile | null> {
    await this.pause();
    return [...this.rows.values()].find((p) => p.referralCode === code) ?? null;
  }

  async insertIfAbsent(profile: Profile): Promise<{ profile: Profile; created: boolean }> {
    await this.pause();
    const existing = this.rows.get(profile.id);
    if (existing) return { profile: existing, created: false };
    if ([...this.rows.values()].some((p) => p.referralCode === profile.referralCode)) {
      throw new Error(`Referral code ${profile.referralCode} is already taken`);
    }
    this.rows.set(profile.id, profile);
    return { profile, created: true };
  }

  async update(profile: Profile): Promise<void> {
    await this.pause();
    if (!this.rows.has(profile.id)) throw new RecordNotFoundError(profile.id);
    this.rows.set(profile.id, profile);
  }

  async setReferrerIfUnset(profileId: string, referrerId: string, now: Date): Promise<boolean> {
    await this.pause();
    const row = this.rows.get(profileId);
    if (!row) throw new RecordNotFoundError(profileId);
    if (row.referredBy !== null) return false;
    this.rows.set(profileId, { ...row, referredBy: referrerId, updatedAt: now });
    return true;
  }

  async countReferredBy(referrerId: string): Promise<number> {
    await this.pause();
    return [...this.rows.values()].filter((p) => p.referredBy === referrerId).length;
  }

  /** Test helper: every stored profile. */
  all(): Profile[] {
    return [...this.rows.values()];
  }
}
