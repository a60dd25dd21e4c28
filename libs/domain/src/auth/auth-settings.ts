import { type PasswordPolicy, DEFAULT_PASSWORD_POLICY } from './password-policy.js';
import type { BucketRule } from './token-bucket.js';

/** The requests that are rate limited per client address (GOTRUE.md "Kiln's values"). */
export type AuthAction = 'signup' | 'otp' | 'verify' | 'recover' | 'resend' | 'token_password' | 'token_refresh';

/**
 * Burst 30 per client address on each. The refill follows GoTrue's defaults: 30 per 5 minutes
 * for requests that mail or check secrets, 150 per 5 minutes for token refreshes (many tabs
 * behind one office NAT refresh every hour).
 */
export const DEFAULT_RATE_RULES: Readonly<Record<AuthAction, BucketRule>> = Object.freeze({
  signup: { burst: 30, refillPerSecond: 30 / 300 },
  otp: { burst: 30, refillPerSecond: 30 / 300 },
  verify: { burst: 30, refillPerSecond: 30 / 300 },
  recover: { burst: 30, refillPerSecond: 30 / 300 },
  resend: { burst: 30, refillPerSecond: 30 / 300 },
  token_password: { burst: 30, refillPerSecond: 30 / 300 },
  token_refresh: { burst: 30, refillPerSecond: 150 / 300 },
});

export interface AuthSettings {
  /** The `iss` claim of access tokens (GoTrue: `<API_EXTERNAL_URL>/auth/v1`). */
  readonly issuer: string;
  /** The product name in mails. */
  readonly productName: string;
  readonly passwordPolicy: PasswordPolicy;
  readonly rateRules: Readonly<Record<AuthAction, BucketRule>>;
}

export function authSettings(overrides: Partial<AuthSettings> = {}): AuthSettings {
  return Object.freeze({
    issuer: overrides.issuer ?? 'http://localhost:3000/auth/v1',
    productName: overrides.productName ?? 'Kiln',
    passwordPolicy: overrides.passwordPolicy ?? DEFAULT_PASSWORD_POLICY,
    rateRules: overrides.rateRules ?? DEFAULT_RATE_RULES,
  });
}
