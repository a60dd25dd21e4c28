import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  type AccountState,
  applyEntry,
  decideCycle,
  decideDebit,
  decideGrant,
  decideRefund,
  emptyAccount,
  foldEntries,
} from '../../credits/credit-account.js';
import type { CreditLedger } from '../../credits/credit-ledger.port.js';
import type { LedgerEntry } from '../../credits/ledger-entry.js';

export interface LedgerHarness {
  readonly ledger: CreditLedger;
  /** A fresh account id no other test uses (adapters may need the account's user to exist). */
  newAccount(): Promise<string>;
  close?(): Promise<void>;
}

const day = (d: number) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000);
const month = (m: number) => new Date(Date.UTC(2026, m, 1));

type Op =
  | { t: 'grant'; key: string; bucket: 'referral' | 'addon'; amount: number }
  | { t: 'debit'; key: string; amount: number }
  | { t: 'refund'; key: string; debitKey: string }
  | { t: 'cycle'; key: string; month: number; allowance: number | null };

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const program = fc.array(
  fc.oneof(
    fc.record({ t: fc.constant('grant' as const), key, bucket: fc.constantFrom('referral' as const, 'addon' as const), amount: fc.integer({ min: 1, max: 30 }) }),
    fc.record({ t: fc.constant('debit' as const), key, amount: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ t: fc.constant('refund' as const), key, debitKey: key }),
    fc.record({ t: fc.constant('cycle' as const), key: fc.oneof(key, fc.constantFrom('c0', 'c1', 'c2')), month: fc.integer({ min: 0, max: 3 }), allowance: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.constant(null)) }),
  ),
  { maxLength: 25 },
);

function decide(state: AccountState, op: Op, at: Date) {
  switch (op.t) {
    case 'grant':
      return decideGrant(state, { key: op.key, at, bucket: op.bucket, amount: op.amount, reason: 'adjustment' });
    case 'debit':
      return decideDebit(state, { key: op.key, at, amount: op.amount });
    case 'refund':
      return decideRefund(state, { key: op.key, at, debitKey: op.debitKey });
    case 'cycle':
      return decideCycle(state, { key: op.key, at, start: month(op.month), end: month(op.month + 1), allowance: op.allowance });
  }
}

function run(ledger: CreditLedger, account: string, op: Op, at: Date) {
  switch (op.t) {
    case 'grant':
      return ledger.grant(account, { key: op.key, at, bucket: op.bucket, amount: op.amount, reason: 'adjustment' });
    case 'debit':
      return ledger.debit(account, { key: op.key, at, amount: op.amount });
    case 'refund':
      return ledger.refund(account, { key: op.key, at, debitKey: op.debitKey });
    case 'cycle':
      return ledger.startCycle(account, { key: op.key, at, start: month(op.month), end: month(op.month + 1), allowance: op.allowance });
  }
}

/** Entries compared by meaning (adapters may return fresh Date objects or reorder fields). */
const plain = (entries: readonly (LedgerEntry | null)[]) => JSON.parse(JSON.stringify(entries));

/**
 * The CreditLedger contract: every adapter behaves exactly like the pure rules of
 * credit-account.ts, atomically and idempotently. Call it from each adapter's spec.
 */
export function creditLedgerContract(name: string, makeHarness: () => Promise<LedgerHarness>): void {
  describe(`CreditLedger contract: ${name}`, () => {
    let h: LedgerHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('starts an unknown account empty', async () => {
      const id = await h.newAccount();
      expect(await h.ledger.entries(id)).toEqual([]);
      const s = await h.ledger.summary(id);
      expect(s.balances).toEqual({ monthly: 0, referral: 0, addon: 0 });
      expect(s.cycle).toBeNull();
      expect(s.cycleUsage).toBe(0);
    });

    it('grants, debits in consumption order, refunds and resets like the pure rules', async () => {
      const id = await h.newAccount();
      await h.ledger.startCycle(id, { key: 'c1', at: day(0), start: month(0), end: month(1), allowance: 2 });
      await h.ledger.grant(id, { key: 'r', at: day(0), bucket: 'referral', amount: 1, reason: 'referral_bonus' });
      await h.ledger.grant(id, { key: 'a', at: day(0), bucket: 'addon', amount: 500, reason: 'addon_purchase' });
      const d = await h.ledger.debit(id, { key: 'd', at: day(1), amount: 4 });
      expect(d.ok && plain([d.value.entry])[0].portions).toEqual([
        { bucket: 'monthly', amount: 2 },
        { bucket: 'referral', amount: 1 },
        { bucket: 'addon', amount: 1 },
      ]);
      await h.ledger.startCycle(id, { key: 'c2', at: month(1), start: month(1), end: month(2), allowance: 5 });
      const r = await h.ledger.refund(id, { key: 'refund:d', at: month(1), debitKey: 'd' });
      expect(r.ok).toBe(true);
      const s = await h.ledger.summary(id);
      expect(s.balances).toEqual({ monthly: 5, referral: 1, addon: 500 });
      expect(s.totals).toEqual({ granted: 508, expired: 0, consumed: 4, refunded: 2 });
      expect(s.cycle).toEqual({ start: month(1), end: month(2), allowance: 5 });
      expect((await h.ledger.entries(id)).map((e) => e.kind)).toEqual(['cycle', 'grant', 'grant', 'debit', 'cycle', 'refund']);
    });

    it('refuses a debit it cannot cover and changes nothing', async () => {
      const id = await h.newAccount();
      await h.ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 1 });
      const r = await h.ledger.debit(id, { key: 'd', at: day(0), amount: 2 });
      expect(!r.ok && r.error).toEqual(expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', available: 1, requested: 2 }));
      expect(await h.ledger.entries(id)).toHaveLength(1);
    });

    it('replays a key without a second entry, and refuses a key reused differently', async () => {
      const id = await h.newAccount();
      await h.ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 5 });
      const first = await h.ledger.debit(id, { key: 'k', at: day(0), amount: 1 });
      const again = await h.ledger.debit(id, { key: 'k', at: day(2), amount: 1 });
      expect(again.ok && again.value.replayed).toBe(true);
      expect(plain([again.ok ? again.value.entry : null])).toEqual(plain([first.ok ? first.value.entry : null]));
      const conflict = await h.ledger.grant(id, { key: 'k', at: day(0), bucket: 'addon', amount: 1, reason: 'adjustment' });
      expect(!conflict.ok && conflict.error.code).toBe('CREDITS.IDEMPOTENCY_CONFLICT');
      expect((await h.ledger.summary(id)).balances.monthly).toBe(4);
    });

    it('keeps accounts apart', async () => {
      const a = await h.newAccount();
      const b = await h.newAccount();
      await h.ledger.grant(a, { key: 'same', at: day(0), bucket: 'addon', amount: 500, reason: 'addon_purchase' });
      const other = await h.ledger.grant(b, { key: 'same', at: day(0), bucket: 'addon', amount: 500, reason: 'addon_purchase' });
      expect(other.ok && other.value.replayed).toBe(false);
      expect((await h.ledger.summary(b)).balances.addon).toBe(500);
    });

    it('spends exactly the balance under 100 concurrent debits', async () => {
      const id = await h.newAccount();
      await h.ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 5 });
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => h.ledger.debit(id, { key: `m${i}`, at: day(1), amount: 1 })));
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      const s = await h.ledger.summary(id);
      expect(s.balances.monthly).toBe(0);
      expect(s.totals.consumed).toBe(5);
      expect((await h.ledger.entries(id)).filter((e) => e.kind === 'debit')).toHaveLength(5);
    });

    it('charges a key once under concurrent replays', async () => {
      const id = await h.newAccount();
      await h.ledger.startCycle(id, { key: 'c', at: day(0), start: month(0), end: month(1), allowance: 5 });
      const results = await Promise.all(Array.from({ length: 20 }, () => h.ledger.debit(id, { key: 'same', at: day(1), amount: 1 })));
      expect(results.every((r) => r.ok)).toBe(true);
      expect((await h.ledger.summary(id)).balances.monthly).toBe(4);
    });

    it('agrees with the pure rules on random programs', async () => {
      await fc.assert(
        fc.asyncProperty(program, async (ops) => {
          const id = await h.newAccount();
          let model = emptyAccount();
          for (const [i, op] of ops.entries()) {
            const at = day(i);
            const expected = decide(model, op, at);
            const actual = await run(h.ledger, id, op, at);
            expect(actual.ok).toBe(expected.ok);
            if (expected.ok && actual.ok) {
              expect(actual.value.replayed).toBe(expected.value.replayed);
              expect(plain([actual.value.entry])).toEqual(plain([expected.value.entry]));
              if (expected.value.entry && !expected.value.replayed) model = applyEntry(model, expected.value.entry);
            } else if (!expected.ok && !actual.ok) {
              expect(actual.error.code).toBe(expected.error.code);
            }
          }
          const summary = await h.ledger.summary(id);
          const refolded = foldEntries(await h.ledger.entries(id));
          expect(plain([summary as never])).toEqual(
            plain([{ balances: model.balances, cycle: model.cycle, totals: model.totals, cycleUsage: model.cycleUsage, referralGranted: model.referralGranted, addonGranted: model.addonGranted } as never]),
          );
          expect(refolded.balances).toEqual(model.balances);
        }),
        { numRuns: 40 },
      );
    });
  });
}
