import type { CreditLedger, Profile, ProfileRepository, RecordReferrerOutcome } from '@kiln/domain';

/**
 * Fills a profile's credits, referral_credits and extra_credits from the ledger's balances
 * (docs/domain.md: the profile fields are a read model of the ledger) around a repository that
 * stores profiles without them — the in-memory one. The PostgreSQL adapter fills them itself.
 */
export class LedgerBackedProfileRepository implements ProfileRepository {
  constructor(
    private readonly inner: ProfileRepository,
    private readonly ledger: CreditLedger,
  ) {}

  async findById(id: string): Promise<Profile | null> {
    return this.withCredits(await this.inner.findById(id));
  }

  async findByReferralCode(code: string): Promise<Profile | null> {
    return this.withCredits(await this.inner.findByReferralCode(code));
  }

  async insertIfAbsent(profile: Profile): Promise<{ profile: Profile; created: boolean }> {
    const result = await this.inner.insertIfAbsent(profile);
    return { profile: (await this.withCredits(result.profile)) ?? result.profile, created: result.created };
  }

  update(profile: Profile): Promise<void> {
    return this.inner.update(profile);
  }

  recordReferrer(refereeId: string, referrerId: string, now: Date): Promise<RecordReferrerOutcome> {
    return this.inner.recordReferrer(refereeId, referrerId, now);
  }

  markDeleted(id: string, at: Date): Promise<void> {
    return this.inner.markDeleted(id, at);
  }

  countReferredBy(referrerId: string): Promise<number> {
    return this.inner.countReferredBy(referrerId);
  }

  private async withCredits(profile: Profile | null): Promise<Profile | null> {
    if (profile === null) return null;
    const { balances } = await this.ledger.summary(profile.id);
    return { ...profile, credits: balances.monthly, referralCredits: balances.referral, extraCredits: balances.addon };
  }
}
