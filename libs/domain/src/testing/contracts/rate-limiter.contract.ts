import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { RateLimitDecision, RateLimiter } from '../../auth/rate-limiter.port.js';
import { type BucketRule, type BucketState, takeToken } from '../../auth/token-bucket.js';
import { FixedClock } from '../fixed-clock.js';

export interface RateLimiterHarness {
  /** Reads the time from the clock the contract passed to the harness. */
  readonly limiter: RateLimiter;
  close?(): Promise<void>;
}

const BURST_3: BucketRule = { burst: 3, refillPerSecond: 1 };
const PER_MINUTE_6: BucketRule = { burst: 6, refillPerSecond: 0.1 };
const NEVER_REFILLS: BucketRule = { burst: 5, refillPerSecond: 0 };

type Op = { readonly key: 'a' | 'b'; readonly advanceMs: number };

const program = fc.array(fc.record({ key: fc.constantFrom('a' as const, 'b' as const), advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12_000 })) }), {
  maxLength: 30,
});

/** The decision the port answers for the domain's one. */
const asDecision = (decision: ReturnType<typeof takeToken>): RateLimitDecision =>
  decision.allowed ? { allowed: true } : { allowed: false, retryAfterMs: decision.retryAfterMs };

/**
 * The RateLimiter contract: every adapter answers exactly what the domain's token bucket
 * (auth/token-bucket.ts) decides, one take at a time even when takes on one key race. Call it
 * from each adapter's spec; `makeHarness` builds the limiter over the clock it is given.
 */
export function rateLimiterContract(name: string, makeHarness: (clock: FixedClock) => Promise<RateLimiterHarness>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const clock = new FixedClock('2026-01-15T10:00:00.000Z');
    let h: RateLimiterHarness;
    let keys = 0;
    /** A key no other test has used. */
    const freshKey = (label = 'k') => `contract:${label}:${(keys += 1)}`;
    const take = (key: string, rule: BucketRule) => h.limiter.take(key, rule);

    beforeAll(async () => {
      h = await makeHarness(clock);
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('allows a new key its whole burst at once, then refuses until a whole token is back', async () => {
      const key = freshKey();
      for (let i = 0; i < 3; i += 1) expect(await take(key, BURST_3)).toEqual({ allowed: true });
      expect(await take(key, BURST_3)).toEqual({ allowed: false, retryAfterMs: 1000 });
      clock.advance(400);
      expect(await take(key, BURST_3)).toEqual({ allowed: false, retryAfterMs: 600 });
      clock.advance(600);
      expect(await take(key, BURST_3)).toEqual({ allowed: true });
      expect(await take(key, BURST_3)).toEqual({ allowed: false, retryAfterMs: 1000 });
    });

    it('refills with time, never past the burst', async () => {
      const key = freshKey();
      for (let i = 0; i < 6; i += 1) await take(key, PER_MINUTE_6);
      clock.advance(60 * 60_000);
      const answers = [];
      for (let i = 0; i < 8; i += 1) answers.push((await take(key, PER_MINUTE_6)).allowed);
      expect(answers).toEqual([true, true, true, true, true, true, false, false]);
    });

    it('keeps each key to its own bucket', async () => {
      const [first, second] = [freshKey('signup:10.0.0.1'), freshKey('signup:10.0.0.2')];
      for (let i = 0; i < 3; i += 1) await take(first, BURST_3);
      expect((await take(first, BURST_3)).allowed).toBe(false);
      expect(await take(second, BURST_3)).toEqual({ allowed: true });
    });

    it('never refills a bucket whose rule refills nothing', async () => {
      const key = freshKey();
      for (let i = 0; i < 5; i += 1) expect((await take(key, NEVER_REFILLS)).allowed).toBe(true);
      clock.advance(24 * 60 * 60_000);
      expect(await take(key, NEVER_REFILLS)).toEqual({ allowed: false, retryAfterMs: Number.POSITIVE_INFINITY });
    });

    it('answers what the domain’s token bucket decides, for any takes at any times (model)', async () => {
      const rules: Record<Op['key'], BucketRule> = { a: BURST_3, b: PER_MINUTE_6 };
      await fc.assert(
        fc.asyncProperty(program, async (ops) => {
          const prefix = freshKey('model');
          const model = new Map<string, BucketState>();
          for (const op of ops) {
            clock.advance(op.advanceMs);
            const expected = takeToken(model.get(op.key) ?? null, rules[op.key], clock.now().getTime());
            model.set(op.key, expected.state);
            expect(await take(`${prefix}:${op.key}`, rules[op.key])).toEqual(asDecision(expected));
          }
        }),
        { numRuns: 30 },
      );
    });

    it('lets exactly the burst through when 20 takes on a new key race (no lost update)', async () => {
      const key = freshKey();
      const answers = await Promise.all(Array.from({ length: 20 }, () => take(key, NEVER_REFILLS)));
      expect(answers.filter((a) => a.allowed)).toHaveLength(5);
      expect((await take(key, NEVER_REFILLS)).allowed).toBe(false);
    });

    it('lets exactly the tokens left through when 20 takes on a used key race', async () => {
      const key = freshKey();
      expect((await take(key, NEVER_REFILLS)).allowed).toBe(true);
      const answers = await Promise.all(Array.from({ length: 20 }, () => take(key, NEVER_REFILLS)));
      expect(answers.filter((a) => a.allowed)).toHaveLength(4);
    });
  });
}
