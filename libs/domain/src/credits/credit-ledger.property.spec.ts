import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InMemoryCreditLedger } from '../testing/in-memory-credit-ledger.js';
import { type AccountSummary, totalBalance } from './credit-account.js';
import { CONSUMPTION_ORDER, type LedgerEntry, sumPortions } from './ledger-entry.js';

/**
 * Random programs of grants, debits, refunds and cycle resets, with keys drawn from a small
 * pool so replays and conflicts happen often. After every step the ledger is checked against
 * the rules of docs/domain.md. fast-check prints the seed and path of any failure; rerun
 * with `fc.assert(..., { seed, path })` to replay it.
 */

const KEYS = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'];
const key = fc.constantFrom(...KEYS);
const base = Date.UTC(2026, 0, 1);
const monthStart = (i: number) => new Date(Date.UTC(2026, i, 1));

type Op =
  | { t: 'grant'; key: string; bucket: 'referral' | 'addon'; amount: number }
  | { t: 'debit'; key: string; amount: number }
  | { t: 'refund'; key: string; debitKey: string }
  | { t: 'cycle'; key: string; month: number; allowance: number | null };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('grant' as const), key, bucket: fc.constantFrom('referral' as const, 'addon' as const), amount: fc.integer({ min: 1, max: 600 }) }),
  fc.record({ t: fc.constant('debit' as const), key, amount: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('debit' as const), key, amount: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ t: fc.constant('refund' as const), key, debitKey: key }),
  fc.record({
    t: fc.constant('cycle' as const),
    key: fc.oneof(key, fc.integer({ min: 0, max: 5 }).map((i) => `cycle:${i}`)),
    month: fc.integer({ min: 0, max: 5 }),
    allowance: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(null)),
  }),
);

async function apply(ledger: InMemoryCreditLedger, o: Op, at: Date) {
  switch (o.t) {
    case 'grant':
      return ledger.grant('u', { key: o.key, at, bucket: o.bucket, amount: o.amount, reason: 'adjustment' });
    case 'debit':
      return ledger.debit('u', { key: o.key, at, amount: o.amount });
    case 'refund':
      return ledger.refund('u', { key: o.key, at, debitKey: o.debitKey });
    case 'cycle':
      return ledger.startCycle('u', { key: o.key, at, start: monthStart(o.month), end: monthStart(o.month + 1), allowance: o.allowance });
  }
}

/** Conservation recomputed from the raw entries, independently of the fold. */
function conservation(entries: readonly LedgerEntry[], summary: AccountSummary) {
  let granted = 0;
  let expired = 0;
  let consumed = 0;
  let refunded = 0;
  for (const e of entries) {
    if (e.kind === 'grant') granted += e.amount;
    if (e.kind === 'cycle') {
      granted += e.allowance ?? 0;
      expired += e.expired;
    }
    if (e.kind === 'debit') consumed += sumPortions(e.portions);
    if (e.kind === 'refund') refunded += sumPortions(e.portions);
  }
  return { lhs: granted - expired, rhs: totalBalance(summary.balances) + consumed - refunded };
}

describe('credit ledger properties', () => {
  it('keeps every rule over random programs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (program) => {
        const ledger = new InMemoryCreditLedger();
        for (const [i, o] of program.entries()) {
          const at = new Date(base + i * 60_000);
          const before = await ledger.summary('u');
          const entriesBefore = await ledger.entries('u');
          const keyWasUsed = entriesBefore.some((e) => e.key === o.key);
          const result = await apply(ledger, o, at);
          const after = await ledger.summary('u');
          const entriesAfter = await ledger.entries('u');

          // Never negative, always conserved.
          for (const b of CONSUMPTION_ORDER) expect(after.balances[b]).toBeGreaterThanOrEqual(0);
          const c = conservation(entriesAfter, after);
          expect(c.lhs).toBe(c.rhs);

          // Append-only: earlier entries are never changed or removed.
          expect(entriesAfter.slice(0, entriesBefore.length)).toEqual(entriesBefore);

          // Replaying a key changes nothing: it returns the stored entry or a conflict.
          if (keyWasUsed || !result.ok || result.value.entry === null || result.value.replayed) {
            expect(entriesAfter).toEqual(entriesBefore);
            expect(after.balances).toEqual(before.balances);
          }
          if (keyWasUsed) {
            if (result.ok) {
              expect(result.value.replayed).toBe(true);
              expect(result.value.entry).toEqual(entriesBefore.find((e) => e.key === o.key));
            } else {
              expect(result.error.code).toBe('CREDITS.IDEMPOTENCY_CONFLICT');
            }
            continue;
          }
          if (!result.ok || result.value.entry === null) continue;

          const entry = result.value.entry;
          if (entry.kind === 'debit' && entry.metered) {
            // Consumption order: each bucket gives what it has before the next one is touched.
            let left = entry.amount;
            const expected = [];
            for (const b of CONSUMPTION_ORDER) {
              const take = Math.min(left, before.balances[b]);
              if (take > 0) expected.push({ bucket: b, amount: take });
              left -= take;
            }
            expect(left).toBe(0);
            expect(entry.portions).toEqual(expected);
          }
          if (entry.kind === 'cycle') {
            // A monthly reset never touches referral or add-on credits, and does not accumulate.
            expect(after.balances.referral).toBe(before.balances.referral);
            expect(after.balances.addon).toBe(before.balances.addon);
            expect(after.balances.monthly).toBe(entry.allowance ?? 0);
            expect(entry.expired).toBe(before.balances.monthly);
          }
          if (entry.kind === 'grant') {
            expect(after.balances[entry.bucket]).toBe(before.balances[entry.bucket] + entry.amount);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a debit exactly when the balance cannot cover it (limited cycles)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 12 }),
        async (monthly, referral, addon, amount) => {
          const ledger = new InMemoryCreditLedger();
          const at = monthStart(0);
          await ledger.startCycle('u', { key: 'c', at, start: at, end: monthStart(1), allowance: monthly });
          if (referral > 0) await ledger.grant('u', { key: 'r', at, bucket: 'referral', amount: referral, reason: 'referral_bonus' });
          if (addon > 0) await ledger.grant('u', { key: 'a', at, bucket: 'addon', amount: addon, reason: 'addon_purchase' });
          const result = await ledger.debit('u', { key: 'd', at, amount });
          expect(result.ok).toBe(monthly + referral + addon >= amount);
          if (!result.ok) expect(result.error.code).toBe('CREDITS.LIMIT_REACHED');
        },
      ),
    );
  });

  it('refunds each debit at most once, whatever the keys', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('r1', 'r2', 'r3'), { minLength: 1, maxLength: 8 }), async (refundKeys) => {
        const ledger = new InMemoryCreditLedger();
        const at = monthStart(0);
        await ledger.startCycle('u', { key: 'c', at, start: at, end: monthStart(1), allowance: 5 });
        await ledger.debit('u', { key: 'd', at, amount: 1 });
        for (const k of refundKeys) await ledger.refund('u', { key: k, at, debitKey: 'd' });
        const refunds = (await ledger.entries('u')).filter((e) => e.kind === 'refund');
        expect(refunds).toHaveLength(1);
        expect((await ledger.summary('u')).balances.monthly).toBe(5);
      }),
    );
  });
});
