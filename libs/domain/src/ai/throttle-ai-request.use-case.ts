import type { RateLimiter } from '../auth/rate-limiter.port.js';
import type { BucketRule } from '../auth/token-bucket.js';
import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';

/** Too many free AI requests (enhance-prompt, summarize, planning streams, query) in a short time. */
export type AiRateLimited = DomainError<'AI.RATE_LIMITED'> & { readonly retryAfterSeconds: number };

export const aiRateLimited = (retryAfterSeconds: number): AiRateLimited => ({
  code: 'AI.RATE_LIMITED',
  message: `Too many AI requests. Please wait ${retryAfterSeconds} s and try again.`,
  retryAfterSeconds,
});

/** The free AI helpers' allowance per user: a burst, then this many a minute. */
export function aiRequestRule(perMinute: number): BucketRule {
  return { burst: perMinute, refillPerSecond: perMinute / 60 };
}

/**
 * One token bucket per user in front of the AI helpers that cost no credit: each of them still
 * calls a paid model when a provider is configured, so nobody may call them without bound.
 * (Turns are paid in credits and are not limited here.)
 */
export class ThrottleAiRequest {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly rule: BucketRule,
  ) {}

  async execute(input: { readonly userId: string }): Promise<Result<void, AiRateLimited>> {
    const decision = await this.limiter.take(`ai:${input.userId}`, this.rule);
    if (decision.allowed) return ok(undefined);
    return err(aiRateLimited(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
  }
}
