import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type CreditLedger, createProfile, foldEntries, brokenInvariants } from '@kiln/domain';
import { creditLedgerContract } from '@kiln/domain/contracts';
import { PgCreditLedger } from './pg-credit-ledger.adapter.js';
import { PgProfileRepository } from './pg-profile-repository.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

jest.setTimeout(30_000);

const month = (m: number) => new Date(Date.UTC(2026, m, 1));
const day = (d: number) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000);

/** Profiles for ledger accounts (credit_accounts.user_id references profiles.id). */
function accounts(tx: PgUnitOfWork) {
  const profiles = new PgProfileRepository(tx);
  let n = 0;
  return async (): Promise<string> => {
    const id = `account-${++n}`;
    await profiles.insertIfAbsent(createProfile({ id, email: `${id}@example.com`, referralCode: `CODE${n}` }, day(0)));
    return id;
  };
}

creditLedgerContract('postgres', async () => {
  const db = await createTestDatabase();
  const tx = new PgUnitOfWork(db.dataSource);
  return { ledger: new PgCreditLedger(tx), newAccount: accounts(tx), close: () => db.drop() };
});

describe('PgCreditLedger on PostgreSQL', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let ledger: CreditLedger;
  let newAccount: () => Promise<string>;
  let profiles: PgProfileRepository;

  beforeAll(async () => {
    db = await createTestDatabase();
    tx = new PgUnitOfWork(db.dataSource);
    ledger = new PgCreditLedger(tx);
    newAccount = accounts(tx);
    profiles = new PgProfileRepository(tx);
  });
  afterAll(async () => {
    await db.drop();
  });

  const expectSound = async (id: string) => {
    const summary = await ledger.summary(id);
    expect(brokenInvariants(summary)).toEqual([]);
    const refolded = foldEntries(await ledger.entries(id));
    expect({ ...summary }).toEqual({
      balances: refolded.balances,
      cycle: refolded.cycle,
      totals: refolded.totals,
      cycleUsage: refolded.cycleUsage,
      referralGranted: refolded.referralGranted,
      addonGranted: refolded.addonGranted,
    });
    return summary;
  };

  it('fills the profile’s credit fields from the ledger (the read model)', async () => {
    const id = await newAccount();
    expect(await profiles.findById(id)).toEqual(expect.objectContaining({ credits: 0, referralCredits: 0, extraCredits: 0 }));
    await ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 5 });
    await ledger.grant(id, { key: 'r', at: day(0), bucket: 'referral', amount: 25, reason: 'referral_bonus' });
    await ledger.grant(id, { key: 'a', at: day(0), bucket: 'addon', amount: 500, reason: 'addon_purchase' });
    await ledger.debit(id, { key: 'd', at: day(1), amount: 7 });
    const profile = await profiles.findById(id);
    expect(profile).toEqual(expect.objectContaining({ credits: 0, referralCredits: 23, extraCredits: 500 }));
    // Writing a profile never writes credits: the ledger stays the truth.
    await profiles.update({ ...profile!, credits: 999, referralCredits: 999, extraCredits: 999 });
    expect(await profiles.findById(id)).toEqual(expect.objectContaining({ credits: 0, referralCredits: 23, extraCredits: 500 }));
  });

  it('spends exactly the balance spread over all three buckets under 100 concurrent debits', async () => {
    const id = await newAccount();
    await ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 2 });
    await ledger.grant(id, { key: 'r', at: day(0), bucket: 'referral', amount: 2, reason: 'adjustment' });
    await ledger.grant(id, { key: 'a', at: day(0), bucket: 'addon', amount: 1, reason: 'adjustment' });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => ledger.debit(id, { key: `m${i}`, at: day(1), amount: 1 })));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const refused = results.filter((r) => !r.ok);
    for (const r of refused) expect(!r.ok && r.error).toEqual(expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', requested: 1 }));
    const summary = await expectSound(id);
    expect(summary.balances).toEqual({ monthly: 0, referral: 0, addon: 0 });
    expect(summary.totals.consumed).toBe(5);
    expect(summary.cycleUsage).toBe(5);
  });

  it('answers concurrent same-key debits as one debit and replays, even when it takes the last credit', async () => {
    const id = await newAccount();
    await ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 1 });
    const results = await Promise.all(Array.from({ length: 25 }, () => ledger.debit(id, { key: 'same', at: day(1), amount: 1 })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && !r.value.replayed)).toHaveLength(1);
    const entries = await ledger.entries(id);
    expect(entries.filter((e) => e.kind === 'debit')).toHaveLength(1);
    expect((await expectSound(id)).balances.monthly).toBe(0);
  });

  it('keeps the fold equal to the entries under concurrent grants, debits, refunds and cycles', async () => {
    for (let round = 0; round < 6; round++) {
      const id = await newAccount();
      await ledger.startCycle(id, { key: 'c0', at: day(0), start: month(0), end: month(1), allowance: 10 });
      await ledger.grant(id, { key: 'r0', at: day(0), bucket: 'referral', amount: 4, reason: 'adjustment' });
      for (let i = 0; i < 6; i++) await ledger.debit(id, { key: `pre${i}`, at: day(0), amount: 1 });
      const ops: Promise<unknown>[] = [];
      for (let i = 0; i < 30; i++) {
        ops.push(ledger.debit(id, { key: `d${i}`, at: day(1), amount: 1 + ((i + round) % 3) }));
        if (i % 3 === 0) ops.push(ledger.grant(id, { key: `g${i}`, at: day(1), bucket: i % 2 ? 'addon' : 'referral', amount: 2, reason: 'adjustment' }));
        if (i < 6) ops.push(ledger.refund(id, { key: `refund:pre${i}`, at: day(1), debitKey: `pre${i}` }));
        if (i % 5 === 0) ops.push(ledger.refund(id, { key: `refund:d${i}`, at: day(1), debitKey: `d${i}` }));
        if (i === 10 + round) ops.push(ledger.startCycle(id, { key: 'c1', at: day(2), start: month(1), end: month(2), allowance: round % 2 ? null : 4 }));
      }
      await Promise.all(ops); // none may throw (a CHECK violation or a failed consistency check would)
      await expectSound(id);
    }
  });

  it('retries a debit refused on a stale snapshot once a concurrent grant has committed', async () => {
    const id = await newAccount();
    await ledger.grant(id, { key: 'g0', at: day(0), bucket: 'addon', amount: 1, reason: 'adjustment' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let granted!: (pid: number) => void;
    const grantDone = new Promise<number>((resolve) => (granted = resolve));
    const holder = tx.run(async () => {
      await ledger.grant(id, { key: 'g', at: day(0), bucket: 'addon', amount: 5, reason: 'addon_purchase' });
      const [{ pid }] = await tx.manager().query('SELECT pg_backend_pid() AS pid');
      granted(pid);
      await gate; // hold the account row lock, uncommitted
    });
    const holderPid = await grantDone;
    const debit = ledger.debit(id, { key: 'd', at: day(1), amount: 3 });
    // Wait until the debit is blocked by the grant's transaction, then let the grant commit.
    for (let i = 0; i < 200; i++) {
      const [{ n }] = await db.dataSource.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [holderPid]);
      if (n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release();
    await holder;
    const result = await debit;
    expect(result.ok && result.value.entry.portions).toEqual([{ bucket: 'addon', amount: 3 }]);
    expect((await expectSound(id)).balances.addon).toBe(3);
  });

  it('debits an unlimited cycle without metering it, and still counts the prompt', async () => {
    const id = await newAccount();
    await ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: null });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => ledger.debit(id, { key: `u${i}`, at: day(1), amount: 2 })));
    expect(results.every((r) => r.ok && !r.value.entry.metered && r.value.entry.portions.length === 0)).toBe(true);
    const summary = await expectSound(id);
    expect(summary.cycleUsage).toBe(20);
    expect(summary.totals.consumed).toBe(0);
  });

  it('refuses a debit of an account without entries, creating nothing', async () => {
    const id = await newAccount();
    const r = await ledger.debit(id, { key: 'd', at: day(0), amount: 1 });
    expect(!r.ok && r.error).toEqual(expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', available: 0, requested: 1 }));
    const refund = await ledger.refund(id, { key: 'refund:d', at: day(0), debitKey: 'd' });
    expect(!refund.ok && refund.error.code).toBe('CREDITS.UNKNOWN_DEBIT');
    const rows = await db.dataSource.query('SELECT count(*)::int AS n FROM credit_accounts WHERE user_id = $1', [id]);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('joins the caller’s transaction: a failure after the grant rolls the grant back', async () => {
    const id = await newAccount();
    await expect(
      tx.run(async () => {
        await ledger.grant(id, { key: 'g', at: day(0), bucket: 'addon', amount: 500, reason: 'addon_purchase' });
        expect((await ledger.summary(id)).balances.addon).toBe(500); // visible inside
        throw new Error('payment capture failed');
      }),
    ).rejects.toThrow('payment capture failed');
    expect(await ledger.entries(id)).toEqual([]);
    expect((await ledger.summary(id)).balances.addon).toBe(0);
  });

  it('keeps the caller’s transaction usable after a refused debit inside it', async () => {
    const id = await newAccount();
    const outcome = await tx.run(async () => {
      const refused = await ledger.debit(id, { key: 'd', at: day(0), amount: 1 });
      const granted = await ledger.grant(id, { key: 'g', at: day(0), bucket: 'addon', amount: 2, reason: 'adjustment' });
      const debited = await ledger.debit(id, { key: 'd', at: day(0), amount: 1 });
      return [refused.ok, granted.ok, debited.ok];
    });
    expect(outcome).toEqual([false, true, true]);
    expect((await expectSound(id)).balances.addon).toBe(1);
  });

  it('refuses to change or delete an entry (append-only, enforced by the database)', async () => {
    const id = await newAccount();
    await ledger.grant(id, { key: 'g', at: day(0), bucket: 'addon', amount: 5, reason: 'adjustment' });
    await expect(db.dataSource.query('UPDATE credit_entries SET amount = 50 WHERE account_id = $1', [id])).rejects.toThrow('append-only');
    await expect(db.dataSource.query('DELETE FROM credit_entries WHERE account_id = $1', [id])).rejects.toThrow('append-only');
    expect((await ledger.entries(id)).map((e) => e.kind === 'grant' && e.amount)).toEqual([5]);
  });

  it('refuses a balance that breaks conservation or goes negative (CHECK constraints)', async () => {
    const id = await newAccount();
    await ledger.grant(id, { key: 'g', at: day(0), bucket: 'addon', amount: 5, reason: 'adjustment' });
    await expect(db.dataSource.query('UPDATE credit_accounts SET addon = 6 WHERE user_id = $1', [id])).rejects.toThrow('credit_accounts_conservation_check');
    await expect(
      db.dataSource.query('UPDATE credit_accounts SET addon = -1, granted = -1 WHERE user_id = $1', [id]),
    ).rejects.toThrow('credit_accounts_addon_check');
  });

  it('throws rather than round a bigint beyond Number.MAX_SAFE_INTEGER', async () => {
    const id = await newAccount();
    await ledger.grant(id, { key: 'g', at: day(0), bucket: 'addon', amount: 1, reason: 'adjustment' });
    await db.dataSource.query(
      'UPDATE credit_accounts SET addon = 9007199254740993, granted = 9007199254740993, addon_granted = 9007199254740993 WHERE user_id = $1',
      [id],
    );
    await expect(ledger.summary(id)).rejects.toThrow('credit_accounts.addon = 9007199254740993 is not a safe integer');
    await expect(profiles.findById(id)).rejects.toThrow('is not a safe integer');
  });

  it('refuses an amount that is not a positive safe integer without touching the account', async () => {
    const id = await newAccount();
    await ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 5 });
    for (const amount of [0, -1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      const r = await ledger.debit(id, { key: `bad${amount}`, at: day(0), amount });
      expect(!r.ok && r.error.code).toBe('CREDITS.INVALID_AMOUNT');
    }
    expect((await expectSound(id)).balances.monthly).toBe(5);
  });
});
