import { describe, expect, it } from '@jest/globals';
import { rateLimiterContract } from '../contracts/rate-limiter.contract.js';
import { FixedClock } from '../fixed-clock.js';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';

rateLimiterContract('InMemoryRateLimiter', async (clock) => ({ limiter: new InMemoryRateLimiter(clock) }));

describe('InMemoryRateLimiter', () => {
  it('forgets the buckets that are full again every `sweepEvery` takes, and keeps the others', async () => {
    const clock = new FixedClock();
    const limiter = new InMemoryRateLimiter(clock, 3);
    const rule = { burst: 2, refillPerSecond: 1 };
    await limiter.take('a', rule);
    await limiter.take('b', rule);
    clock.advance(1000);
    await limiter.take('c', rule);
    // Third take: 'a' and 'b' are full again (one token back after 1 s), 'c' has just spent one.
    expect(limiter.size()).toBe(1);
    expect(await limiter.take('c', rule)).toEqual({ allowed: true });
    expect(await limiter.take('c', rule)).toEqual({ allowed: false, retryAfterMs: 1000 });
  });
});
