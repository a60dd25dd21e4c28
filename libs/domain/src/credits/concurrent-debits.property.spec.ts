import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { totalBalance } from './credit-account.js';

/**
 * fc.scheduler decides the order in which every awaited step of the adapters resolves, so
 * these properties explore interleavings of concurrent prompts — the double-spend risk.
 */

/** A pause that yields to the scheduler only once `on` is set (set-up runs unpaused). */
function gate(s: fc.Scheduler) {
  const state = { on: false };
  const pause = () => (state.on ? s.schedule(Promise.resolve(), 'step') : Promise.resolve());
  return { state, pause };
}

describe('concurrent prompt debits', () => {
  it('never over-spend, and charge a replayed key once, in any interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9'), { minLength: 1, maxLength: 14 }),
        async (s, referral, keys) => {
          const { state, pause } = gate(s);
          const kit = createTestKit({ pause });
          await signUp(kit, 'ana'); // free plan: 5 monthly credits
          if (referral > 0) {
            await kit.ledger.grant('ana', { key: 'gift', at: kit.clock.now(), bucket: 'referral', amount: referral, reason: 'adjustment' });
          }
          const startBalance = 5 + referral;
          state.on = true;
          const results = await s.waitFor(
            Promise.all(keys.map((k) => kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: k }))),
          );
          state.on = false;

          const distinct = new Set(keys).size;
          const charged = new Set(results.flatMap((r) => (r.ok ? [r.value.debit.key] : []))).size;
          expect(charged).toBe(Math.min(distinct, startBalance));
          const summary = await kit.ledger.summary('ana');
          expect(totalBalance(summary.balances)).toBe(startBalance - charged);
          for (const r of results) if (!r.ok) expect(r.error.code).toBe('CREDITS.LIMIT_REACHED');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('100 simultaneous prompts against a balance of 5: exactly 5 are charged', async () => {
    const kit = createTestKit({ pause: () => Promise.resolve().then(() => undefined) });
    await signUp(kit, 'ben');
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => kit.consumePromptCredit.execute({ userId: 'ben', idempotencyKey: `msg-${i}` })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const summary = await kit.ledger.summary('ben');
    expect(summary.balances).toEqual({ monthly: 0, referral: 0, addon: 0 });
    expect(summary.totals.consumed).toBe(5);
  });

  /**
   * The check has teeth: a balance that is read, awaited, then written (the bug the port
   * forbids — what a naive SQL SELECT-then-UPDATE does) is caught over-spending by the same
   * scheduler.
   */
  it('catches a read-then-write balance over-spending', async () => {
    class ReadThenWriteBalance {
      constructor(
        private balance: number,
        private readonly pause: () => Promise<void>,
      ) {}
      async debit(): Promise<boolean> {
        const seen = this.balance;
        await this.pause();
        if (seen < 1) return false;
        this.balance = seen - 1;
        return true;
      }
    }
    const outcome = await fc.check(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const account = new ReadThenWriteBalance(1, () => s.schedule(Promise.resolve()));
        const results = await s.waitFor(Promise.all([account.debit(), account.debit(), account.debit()]));
        expect(results.filter(Boolean).length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 100 },
    );
    expect(outcome.failed).toBe(true);
  });
});
