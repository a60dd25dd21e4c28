import { type Result, err, ok } from '../shared/result.js';
import { type RequestRateLimited, requestRateLimited } from './auth.errors.js';
import type { AuthAction } from './auth-settings.js';
import type { RateLimiter } from './rate-limiter.port.js';
import type { BucketRule } from './token-bucket.js';

/** Per-client token buckets in front of the auth requests that mail or check secrets. */
export class ThrottleAuthRequest {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly rules: Readonly<Record<AuthAction, BucketRule>>,
  ) {}

  async execute(input: { readonly action: AuthAction; readonly clientKey: string }): Promise<Result<void, RequestRateLimited>> {
    const decision = await this.limiter.take(`${input.action}:${input.clientKey}`, this.rules[input.action]);
    if (decision.allowed) return ok(undefined);
    return err(requestRateLimited(Math.max(1, Math.ceil(decision.retryAfterMs / 1000))));
  }
}
