import { describe, expect, it } from '@jest/globals';
import {
  type AccountState,
  applyEntry,
  brokenInvariants,
  decideCycle,
  decideDebit,
  decideGrant,
  decideRefund,
  emptyAccount,
  foldEntries,
} from './credit-account.js';
import type { LedgerEntry } from './ledger-entry.js';

const at = new Date('2026-03-01T00:00:00Z');
const march = { start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-04-01T00:00:00Z') };
const april = { start: new Date('2026-04-01T00:00:00Z'), end: new Date('2026-05-01T00:00:00Z') };

/** Applies decisions that must succeed, returning the state after them. */
function run(state: AccountState, ...steps: Array<(s: AccountState) => { ok: boolean } & object>): AccountState {
  for (const step of steps) {
    const r = step(state) as { ok: true; value: { entry: LedgerEntry | null } } | { ok: false; error: unknown };
    if (!r.ok) throw new Error(`step failed: ${JSON.stringify(r.error)}`);
    if (r.value.entry) state = applyEntry(state, r.value.entry);
  }
  return state;
}

const cycle = (w: typeof march, allowance: number | null, key = `cycle:${w.start.toISOString()}`) => (s: AccountState) =>
  decideCycle(s, { key, at, ...w, allowance });
const grant = (bucket: 'referral' | 'addon', amount: number, key: string) => (s: AccountState) =>
  decideGrant(s, { key, at, bucket, amount, reason: bucket === 'addon' ? 'addon_purchase' : 'referral_bonus' });
const debit = (key: string, amount = 1) => (s: AccountState) => decideDebit(s, { key, at, amount });

describe('credit account', () => {
  it('starts empty and sound', () => {
    const s = emptyAccount();
    expect(s.balances).toEqual({ monthly: 0, referral: 0, addon: 0 });
    expect(brokenInvariants(s)).toEqual([]);
  });

  it('takes credits in the order monthly, referral, add-on', () => {
    let s = run(emptyAccount(), cycle(march, 1), grant('referral', 1, 'r'), grant('addon', 2, 'a'));
    const first = decideDebit(s, { key: 'd1', at, amount: 3 });
    expect(first.ok && first.value.entry.portions).toEqual([
      { bucket: 'monthly', amount: 1 },
      { bucket: 'referral', amount: 1 },
      { bucket: 'addon', amount: 1 },
    ]);
    s = run(s, debit('d1', 3));
    expect(s.balances).toEqual({ monthly: 0, referral: 0, addon: 1 });
    expect(brokenInvariants(s)).toEqual([]);
  });

  it('refuses a debit larger than the balance without taking anything', () => {
    const s = run(emptyAccount(), cycle(march, 1));
    const r = decideDebit(s, { key: 'd', at, amount: 2 });
    expect(r).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', limitType: 'credit', available: 1, requested: 2 }),
    });
  });

  it('refuses a debit when there is no credit at all (nothing is ever negative)', () => {
    const r = decideDebit(emptyAccount(), { key: 'd', at, amount: 1 });
    expect(!r.ok && r.error.code).toBe('CREDITS.LIMIT_REACHED');
  });

  it('replays a key: same entry back, marked replayed, nothing new to append', () => {
    const s = run(emptyAccount(), cycle(march, 5), debit('d1'));
    const again = decideDebit(s, { key: 'd1', at: april.start, amount: 1 });
    expect(again.ok && again.value.replayed).toBe(true);
    expect(again.ok && again.value.entry).toBe(s.byKey.get('d1'));
  });

  it('replays a debit even when the balance is now empty', () => {
    const s = run(emptyAccount(), cycle(march, 1), debit('d1'));
    expect(s.balances.monthly).toBe(0);
    const again = decideDebit(s, { key: 'd1', at, amount: 1 });
    expect(again.ok && again.value.replayed).toBe(true);
  });

  it('refuses a key reused for a different operation', () => {
    const s = run(emptyAccount(), cycle(march, 5), debit('k'));
    expect(decideGrant(s, { key: 'k', at, bucket: 'addon', amount: 500, reason: 'addon_purchase' })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'CREDITS.IDEMPOTENCY_CONFLICT', key: 'k' }),
    });
    expect(!decideDebit(s, { key: 'k', at, amount: 2 }).ok).toBe(true);
  });

  it('rejects amounts that are not positive whole numbers', () => {
    for (const amount of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(decideGrant(emptyAccount(), { key: 'g', at, bucket: 'addon', amount, reason: 'adjustment' })).toEqual({
        ok: false,
        error: expect.objectContaining({ code: 'CREDITS.INVALID_AMOUNT' }),
      });
      expect(!decideDebit(emptyAccount(), { key: 'd', at, amount }).ok).toBe(true);
    }
  });

  it('refunds to the buckets the debit came from, once', () => {
    let s = run(emptyAccount(), cycle(march, 1), grant('addon', 500, 'a'), debit('d1', 2));
    expect(s.balances).toEqual({ monthly: 0, referral: 0, addon: 499 });
    s = run(s, (st) => decideRefund(st, { key: 'refund:d1', at, debitKey: 'd1' }));
    expect(s.balances).toEqual({ monthly: 1, referral: 0, addon: 500 });
    expect(s.totals.refunded).toBe(2);
    expect(decideRefund(s, { key: 'other', at, debitKey: 'd1' })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'CREDITS.ALREADY_REFUNDED', refundKey: 'refund:d1' }),
    });
    expect(brokenInvariants(s)).toEqual([]);
  });

  it('refuses to refund an unknown debit', () => {
    expect(decideRefund(emptyAccount(), { key: 'r', at, debitKey: 'nope' })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'CREDITS.UNKNOWN_DEBIT' }),
    });
  });

  it('does not return monthly credits of a cycle that has since reset', () => {
    let s = run(emptyAccount(), cycle(march, 5), grant('referral', 25, 'r'), debit('d1', 6));
    s = run(s, cycle(april, 5));
    s = run(s, (st) => decideRefund(st, { key: 'refund:d1', at, debitKey: 'd1' }));
    expect(s.balances).toEqual({ monthly: 5, referral: 25, addon: 0 });
    expect(brokenInvariants(s)).toEqual([]);
  });

  it('resets the monthly bucket at a new cycle without touching referral and add-on credits', () => {
    let s = run(emptyAccount(), cycle(march, 25), grant('referral', 25, 'r'), grant('addon', 500, 'a'), debit('d1'));
    s = run(s, cycle(april, 25));
    expect(s.balances).toEqual({ monthly: 25, referral: 25, addon: 500 });
    expect(s.totals.expired).toBe(24);
    expect(s.cycleUsage).toBe(0);
    expect(brokenInvariants(s)).toEqual([]);
  });

  it('ignores a cycle that is older than, or the same as, the current one', () => {
    const s = run(emptyAccount(), cycle(april, 5));
    expect(decideCycle(s, { key: 'old', at, ...march, allowance: 5 })).toEqual({
      ok: true,
      value: { outcome: 'stale', entry: null, replayed: false },
    });
    expect(decideCycle(s, { key: 'same-start', at, ...april, allowance: 5 })).toEqual({
      ok: true,
      value: { outcome: 'current', entry: null, replayed: false },
    });
    const upgraded = decideCycle(s, { key: 'upgrade', at, ...april, allowance: 25 });
    expect(upgraded.ok && upgraded.value.outcome).toBe('started');
  });

  it('refuses a cycle that ends before it starts', () => {
    expect(decideCycle(emptyAccount(), { key: 'c', at, start: april.start, end: march.start, allowance: 5 })).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'CREDITS.INVALID_CYCLE' }),
    });
  });

  it('does not meter prompts in an unlimited cycle, but counts them as used', () => {
    const s = run(emptyAccount(), cycle(march, null), debit('d1'), debit('d2'));
    expect(s.balances).toEqual({ monthly: 0, referral: 0, addon: 0 });
    expect(s.cycleUsage).toBe(2);
    expect((s.byKey.get('d1') as { metered: boolean }).metered).toBe(false);
  });

  it('counts prompts used in the current cycle net of refunds', () => {
    let s = run(emptyAccount(), cycle(march, 5), debit('d1'), debit('d2'));
    s = run(s, (st) => decideRefund(st, { key: 'r', at, debitKey: 'd1' }));
    expect(s.cycleUsage).toBe(1);
  });

  it('folds a list of entries into the same state as applying them one by one', () => {
    const s = run(emptyAccount(), cycle(march, 5), grant('addon', 500, 'a'), debit('d1'));
    const entries = [...s.byKey.values()];
    expect(foldEntries(entries).balances).toEqual(s.balances);
  });
});
