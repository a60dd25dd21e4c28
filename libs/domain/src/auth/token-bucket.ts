/** A token bucket: up to `burst` requests at once, then `refillPerSecond` on average. */
export interface BucketRule {
  readonly burst: number;
  readonly refillPerSecond: number;
}

export interface BucketState {
  readonly tokens: number;
  readonly updatedAtMs: number;
}

export type BucketDecision =
  | { readonly allowed: true; readonly state: BucketState }
  | { readonly allowed: false; readonly state: BucketState; readonly retryAfterMs: number };

/** Refills the bucket for the time passed, then takes one token if there is a whole one. */
export function takeToken(state: BucketState | null, rule: BucketRule, nowMs: number): BucketDecision {
  const previous = state ?? { tokens: rule.burst, updatedAtMs: nowMs };
  const elapsedMs = Math.max(0, nowMs - previous.updatedAtMs);
  const tokens = Math.min(rule.burst, previous.tokens + (elapsedMs / 1000) * rule.refillPerSecond);
  if (tokens >= 1) return { allowed: true, state: { tokens: tokens - 1, updatedAtMs: nowMs } };
  const retryAfterMs = rule.refillPerSecond > 0 ? Math.ceil(((1 - tokens) / rule.refillPerSecond) * 1000) : Number.POSITIVE_INFINITY;
  return { allowed: false, state: { tokens, updatedAtMs: nowMs }, retryAfterMs };
}

/** True when the bucket is full again at `nowMs` (it may then be forgotten). */
export function isFull(state: BucketState, rule: BucketRule, nowMs: number): boolean {
  return state.tokens + ((nowMs - state.updatedAtMs) / 1000) * rule.refillPerSecond >= rule.burst;
}
