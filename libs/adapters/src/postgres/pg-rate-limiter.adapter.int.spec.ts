import { describe, expect, it } from '@jest/globals';
import { type BucketRule, isFull } from '@kiln/domain';
import { rateLimiterContract } from '@kiln/domain/contracts';
import { FixedClock } from '@kiln/domain/testing';
import fc from 'fast-check';
import { createDataSource } from './data-source.js';
import { fullAgainAt, PgRateLimiter } from './pg-rate-limiter.adapter.js';
import { createTestDatabase } from './testing/test-database.js';
import { freshTestDatabases } from './testing/fresh-test-databases.js';

// 20 connections: the contract's 20 racing takes all run at once.
rateLimiterContract('PgRateLimiter', async (clock) => {
  const db = await createTestDatabase({ poolSize: 20 });
  return { limiter: new PgRateLimiter(db.dataSource, clock), close: () => db.drop() };
});

const database = freshTestDatabases();
const RULE: BucketRule = { burst: 2, refillPerSecond: 1 };

describe('PgRateLimiter', () => {
  it('forgets the buckets that are full again every `sweepEvery` takes, and keeps the others', async () => {
    const db = await database();
    const clock = new FixedClock();
    const limiter = new PgRateLimiter(db.dataSource, clock, { sweepEvery: 3 });
    await limiter.take('a', RULE);
    await limiter.take('b', RULE);
    clock.advance(1000);
    await limiter.take('c', RULE);
    // Third take: 'a' and 'b' are full again (one token back after 1 s), 'c' has just spent one.
    expect(await db.dataSource.query('SELECT key FROM rate_limit_buckets ORDER BY key')).toEqual([{ key: 'c' }]);
    expect(await limiter.take('c', RULE)).toEqual({ allowed: true });
    expect(await limiter.take('c', RULE)).toEqual({ allowed: false, retryAfterMs: 1000 });
    // A swept bucket answers as a new one.
    expect(await limiter.take('a', RULE)).toEqual({ allowed: true });
    expect(await limiter.take('a', RULE)).toEqual({ allowed: true });
    expect(await limiter.take('a', RULE)).toEqual({ allowed: false, retryAfterMs: 1000 });
  });

  it('never sweeps a bucket whose rule refills nothing (full_at NULL)', async () => {
    const db = await database();
    const clock = new FixedClock();
    const limiter = new PgRateLimiter(db.dataSource, clock);
    await limiter.take('frozen', { burst: 1, refillPerSecond: 0 });
    clock.advance(365 * 24 * 60 * 60_000);
    expect(await limiter.sweep()).toBe(0);
    expect(await limiter.take('frozen', { burst: 1, refillPerSecond: 0 })).toEqual({ allowed: false, retryAfterMs: Number.POSITIVE_INFINITY });
  });

  it('sweeps a bucket only once the domain calls it full (fullAgainAt)', () => {
    const state = fc.record({ tokens: fc.double({ min: 0, max: 50, noNaN: true }), updatedAtMs: fc.integer({ min: 0, max: 2 ** 42 }) });
    const rule = fc.record({ burst: fc.integer({ min: 1, max: 50 }), refillPerSecond: fc.double({ min: 0.001, max: 100, noNaN: true }) });
    fc.assert(
      fc.property(state, rule, (s, r) => {
        const at = fullAgainAt(s, r);
        expect(at).not.toBeNull();
        expect(isFull(s, r, at!.getTime())).toBe(true);
      }),
    );
  });

  it('shares the buckets between API processes: 2 × 10 racing takes on a bucket of 5 let 5 through', async () => {
    const db = await database();
    const other = createDataSource({ url: db.url, schema: db.schema });
    await other.initialize();
    try {
      const clock = new FixedClock();
      const [one, two] = [new PgRateLimiter(db.dataSource, clock), new PgRateLimiter(other, clock)];
      const rule = { burst: 5, refillPerSecond: 0 };
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : two).take('shared', rule)));
      expect(answers.filter((a) => a.allowed)).toHaveLength(5);
    } finally {
      await other.destroy();
    }
  });
});
