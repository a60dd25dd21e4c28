import type { Profile, ProfileRepository, RecordReferrerOutcome } from '@kiln/domain';
import type { EntityManager } from 'typeorm';
import { CreditAccountOrmEntity } from './credit-account.orm-entity.js';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { type ProfileWithAccount, toProfile, toProfileRow } from './profile.mapper.js';
import { ProfileOrmEntity } from './profile.orm-entity.js';
import { RecordNotFoundError, isUniqueViolation, sql } from './sql.js';

const REFERRAL_CODE_KEY = 'profiles_referral_code_key';

/**
 * Profiles in table `profiles`. The credit fields are read from the ledger (`credit_accounts`),
 * never written here.
 */
export class PgProfileRepository implements ProfileRepository {
  constructor(private readonly tx: PgUnitOfWork) {}

  findById(id: string): Promise<Profile | null> {
    return this.findOne('p.id = :id', { id });
  }

  findByReferralCode(code: string): Promise<Profile | null> {
    return this.findOne('p.referralCode = :code', { code });
  }

  async markDeleted(id: string, at: Date): Promise<void> {
    const { rowCount } = await sql(this.tx.manager(), 'UPDATE profiles SET deleted_at = COALESCE(deleted_at, $2) WHERE id = $1', [id, at]);
    if (!rowCount) throw new RecordNotFoundError(id);
  }

  async insertIfAbsent(profile: Profile): Promise<{ profile: Profile; created: boolean }> {
    let created: boolean;
    try {
      // In a savepoint when the caller has a transaction open, so a refused insert leaves it usable.
      created = await this.tx.atomically(async (manager) => {
        const result = await manager
          .createQueryBuilder()
          .insert()
          .into(ProfileOrmEntity)
          .values(toProfileRow(profile))
          // An empty overwrite list makes this `ON CONFLICT ("id") DO NOTHING`: a concurrent
          // sign-in of the same user waits for the other insert and then inserts nothing.
          .orUpdate([], ['id'])
          .returning(['id'])
          .updateEntity(false)
          .execute();
        return (result.raw as unknown[]).length === 1;
      });
    } catch (error) {
      if (!isUniqueViolation(error, REFERRAL_CODE_KEY)) throw error;
      // ON CONFLICT (id) only absorbs conflicts on the id: a concurrent insert of the same
      // profile (same code) that committed first surfaces as a referral-code conflict instead.
      const existing = await this.findById(profile.id);
      if (existing) return { profile: existing, created: false };
      throw new Error(`Referral code ${profile.referralCode} is already taken`);
    }
    const stored = await this.findById(profile.id);
    if (!stored) throw new Error(`Profile ${profile.id} vanished right after its insert`);
    return { profile: stored, created };
  }

  /**
   * Replaces the stored profile. `referred_by` is write-once: an update made from a snapshot read
   * before `recordReferrer` ran never clears the referrer recorded meanwhile.
   */
  async update(profile: Profile): Promise<void> {
    const { id, referredBy, ...columns } = toProfileRow(profile);
    const result = await this.tx
      .manager()
      .createQueryBuilder()
      .update(ProfileOrmEntity)
      .set({ ...columns, referredBy: () => 'COALESCE(referred_by, :referredBy)' })
      .setParameter('referredBy', referredBy)
      .where('id = :id', { id })
      .execute();
    if (!result.affected) throw new RecordNotFoundError(id);
  }

  /**
   * Locks both rows (in id order, so two opposite calls cannot deadlock), then checks and writes
   * under the lock: of two people applying each other's codes at once, one waits for the other
   * and then sees the referral it recorded.
   */
  recordReferrer(refereeId: string, referrerId: string, now: Date): Promise<RecordReferrerOutcome> {
    return this.tx.atomically(async (manager) => {
      const { rows } = await sql<{ id: string; referred_by: string | null }>(
        manager,
        'SELECT id, referred_by FROM profiles WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
        [[refereeId, referrerId]],
      );
      const referee = rows.find((r) => r.id === refereeId);
      const referrer = rows.find((r) => r.id === referrerId);
      if (!referee) throw new RecordNotFoundError(refereeId);
      if (!referrer) throw new RecordNotFoundError(referrerId);
      if (referee.referred_by !== null) return { outcome: 'already_referred', referredBy: referee.referred_by };
      if (referrer.referred_by === refereeId) return { outcome: 'circular' };
      await sql(manager, 'UPDATE profiles SET referred_by = $2, updated_at = $3 WHERE id = $1', [refereeId, referrerId, now]);
      return { outcome: 'recorded' };
    });
  }

  async countReferredBy(referrerId: string): Promise<number> {
    return this.tx.manager().countBy(ProfileOrmEntity, { referredBy: referrerId });
  }

  private async findOne(where: string, params: Record<string, unknown>): Promise<Profile | null> {
    // A deleted profile is hidden from every lookup.
    const row = await this.query(this.tx.manager()).where(where, params).andWhere('p.deletedAt IS NULL').getOne();
    return row ? toProfile(row as ProfileWithAccount) : null;
  }

  private query(manager: EntityManager) {
    return manager
      .createQueryBuilder(ProfileOrmEntity, 'p')
      .leftJoinAndMapOne('p.account', CreditAccountOrmEntity, 'a', 'a.userId = p.id');
  }
}
