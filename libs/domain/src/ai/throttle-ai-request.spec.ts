import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryRateLimiter } from '../testing/auth/in-memory-rate-limiter.js';
import { aiRequestRule, ThrottleAiRequest } from './throttle-ai-request.use-case.js';

describe('ThrottleAiRequest', () => {
  const setup = (perMinute: number) => {
    const clock = new FixedClock(new Date('2026-11-24T10:00:00Z'));
    return { clock, throttle: new ThrottleAiRequest(new InMemoryRateLimiter(clock), aiRequestRule(perMinute)) };
  };

  it('lets a burst of `perMinute` requests through, then refuses with the wait until the next one', async () => {
    const { throttle } = setup(3);
    for (let i = 0; i < 3; i += 1) expect((await throttle.execute({ userId: 'u1' })).ok).toBe(true);
    const refused = await throttle.execute({ userId: 'u1' });
    expect(refused).toEqual({ ok: false, error: { code: 'AI.RATE_LIMITED', message: 'Too many AI requests. Please wait 20 s and try again.', retryAfterSeconds: 20 } });
  });

  it('refills at perMinute a minute, and each user has a bucket of their own', async () => {
    const { clock, throttle } = setup(6);
    for (let i = 0; i < 6; i += 1) await throttle.execute({ userId: 'u1' });
    expect((await throttle.execute({ userId: 'u1' })).ok).toBe(false);
    expect((await throttle.execute({ userId: 'u2' })).ok).toBe(true);
    clock.advance(10_000); // one token back
    expect((await throttle.execute({ userId: 'u1' })).ok).toBe(true);
    expect((await throttle.execute({ userId: 'u1' })).ok).toBe(false);
  });
});
