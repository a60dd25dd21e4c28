import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Profile, createProfile } from '@kiln/domain';
import { profileRepositoryContract } from '@kiln/domain/contracts';
import { PgProfileRepository } from './pg-profile-repository.adapter.js';
import { PgReferralCodes } from './pg-referral-codes.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

profileRepositoryContract('postgres', async () => {
  const db = await createTestDatabase();
  return { profiles: new PgProfileRepository(new PgUnitOfWork(db.dataSource)), close: () => db.drop() };
});

describe('PgProfileRepository and PgReferralCodes on PostgreSQL', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let profiles: PgProfileRepository;
  const now = new Date(Date.UTC(2026, 4, 1, 8, 0, 0, 5));
  let n = 0;
  const fresh = (): Profile => {
    n += 1;
    return createProfile({ id: `pg-${n}`, email: `pg-${n}@example.com`, referralCode: `PG${String(n).padStart(4, '0')}` }, now);
  };

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 20 });
    tx = new PgUnitOfWork(db.dataSource);
    profiles = new PgProfileRepository(tx);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('never clears a referrer recorded after the snapshot an update was made from', async () => {
    const referrer = fresh();
    const referee = fresh();
    await profiles.insertIfAbsent(referrer);
    await profiles.insertIfAbsent(referee);
    const stale = (await profiles.findById(referee.id))!; // read before the referral…
    await profiles.recordReferrer(referee.id, referrer.id, now);
    await profiles.update({ ...stale, name: 'Signed in again' }); // …written after it
    expect(await profiles.findById(referee.id)).toEqual(expect.objectContaining({ name: 'Signed in again', referredBy: referrer.id }));
  });

  it('stores profiles without the credit fields (they come from the ledger)', async () => {
    const p = { ...fresh(), credits: 40, referralCredits: 25, extraCredits: 500 };
    const { profile } = await profiles.insertIfAbsent(p);
    expect(profile).toEqual({ ...p, credits: 0, referralCredits: 0, extraCredits: 0 });
    const columns = await db.dataSource.query(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'profiles' AND column_name LIKE '%credits%'`,
      [db.schema],
    );
    expect(columns).toEqual([]);
  });

  it('keeps date_of_birth as the calendar date it was given, west of UTC too', async () => {
    const p = { ...fresh(), dateOfBirth: '2000-02-29' };
    await profiles.insertIfAbsent(p);
    const tz = process.env['TZ'];
    process.env['TZ'] = 'America/Los_Angeles';
    try {
      expect((await profiles.findById(p.id))?.dateOfBirth).toBe('2000-02-29');
      expect(await db.dataSource.query('SELECT date_of_birth FROM profiles WHERE id = $1', [p.id])).toEqual([{ date_of_birth: '2000-02-29' }]);
    } finally {
      if (tz === undefined) delete process.env['TZ'];
      else process.env['TZ'] = tz;
    }
  });

  it('creates one profile when concurrent sign-ins even drew the same referral code', async () => {
    // ON CONFLICT (id) does not absorb the race on the referral code's unique index: the
    // adapter must answer the loser with the winner's profile, not "already taken".
    for (let round = 0; round < 10; round++) {
      const p = fresh();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => profiles.insertIfAbsent({ ...p, name: `attempt ${i}` })));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.profile.name)).size).toBe(1);
    }
  });

  it('inserts inside the caller’s transaction: a rollback removes the profile', async () => {
    const p = fresh();
    await expect(
      tx.run(async () => {
        await profiles.insertIfAbsent(p);
        expect(await profiles.findById(p.id)).not.toBeNull();
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await profiles.findById(p.id)).toBeNull();
  });

  it('tells whether a referral code is taken', async () => {
    const codes = new PgReferralCodes(tx);
    const p = fresh();
    expect(await codes.isTaken(p.referralCode as never)).toBe(false);
    await profiles.insertIfAbsent(p);
    expect(await codes.isTaken(p.referralCode as never)).toBe(true);
  });
});
