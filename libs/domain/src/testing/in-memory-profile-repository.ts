import type { Profile } from '../profiles/profile.entity.js';
import type { ProfileRepository, RecordReferrerOutcome } from '../profiles/profile-repository.port.js';
import type { Pause } from './in-memory-credit-ledger.js';

export class RecordNotFoundError extends Error {
  constructor(id: string) {
    super(`Record with id ${id} not found`);
  }
}

/** Profiles in a Map; each method is atomic between its pauses, like a single SQL statement. */
export class InMemoryProfileRepository implements ProfileRepository {
  private readonly rows = new Map<string, Profile>();
  private readonly deleted = new Map<string, Date>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async findById(id: string): Promise<Profile | null> {
    await this.pause();
    return this.deleted.has(id) ? null : (this.rows.get(id) ?? null);
  }

  async findByReferralCode(code: string): Promise<Profile | null> {
    await this.pause();
    return [...this.rows.values()].find((p) => p.referralCode === code && !this.deleted.has(p.id)) ?? null;
  }

  async markDeleted(id: string, at: Date): Promise<void> {
    await this.pause();
    if (!this.rows.has(id)) throw new RecordNotFoundError(id);
    if (!this.deleted.has(id)) this.deleted.set(id, at);
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
    const existing = this.rows.get(profile.id);
    if (!existing) throw new RecordNotFoundError(profile.id);
    // referredBy is write-once (recordReferrer sets it): a stale copy written back cannot clear it.
    this.rows.set(profile.id, { ...profile, referredBy: existing.referredBy ?? profile.referredBy });
  }

  async recordReferrer(refereeId: string, referrerId: string, now: Date): Promise<RecordReferrerOutcome> {
    await this.pause();
    const referee = this.rows.get(refereeId);
    const referrer = this.rows.get(referrerId);
    if (!referee) throw new RecordNotFoundError(refereeId);
    if (!referrer) throw new RecordNotFoundError(referrerId);
    if (referee.referredBy !== null) return { outcome: 'already_referred', referredBy: referee.referredBy };
    if (referrer.referredBy === refereeId) return { outcome: 'circular' };
    this.rows.set(refereeId, { ...referee, referredBy: referrerId, updatedAt: now });
    return { outcome: 'recorded' };
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
