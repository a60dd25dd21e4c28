import type { RateLimitDecision, RateLimiter } from '../../auth/rate-limiter.port.js';
import { type BucketRule, type BucketState, isFull, takeToken } from '../../auth/token-bucket.js';
import type { Clock } from '../../shared/clock.port.js';

/**
 * Token buckets in process memory. Full buckets are forgotten now and then, so a flood of
 * distinct client addresses cannot grow the map without bound.
 */
export class InMemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { state: BucketState; rule: BucketRule }>();
  private calls = 0;

  constructor(
    private readonly clock: Clock,
    private readonly sweepEvery = 1000,
  ) {}

  take(key: string, rule: BucketRule): Promise<RateLimitDecision> {
    const nowMs = this.clock.now().getTime();
    const decision = takeToken(this.buckets.get(key)?.state ?? null, rule, nowMs);
    this.buckets.set(key, { state: decision.state, rule });
    this.calls += 1;
    if (this.calls % this.sweepEvery === 0) this.sweep(nowMs);
    return Promise.resolve(decision.allowed ? { allowed: true } : { allowed: false, retryAfterMs: decision.retryAfterMs });
  }

  /** How many buckets are held (tests). */
  size(): number {
    return this.buckets.size;
  }

  private sweep(nowMs: number): void {
    for (const [key, bucket] of this.buckets) if (isFull(bucket.state, bucket.rule, nowMs)) this.buckets.delete(key);
  }
}
