import type { BucketRule } from './token-bucket.js';

export type RateLimitDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

/**
 * Token buckets by key (an action and a client address). One atomic take per call. The
 * in-memory adapter keeps buckets per process; several API processes would share a store.
 */
export interface RateLimiter {
  take(key: string, rule: BucketRule): Promise<RateLimitDecision>;
}
