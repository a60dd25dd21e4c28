import type { AuthUserRepository, FactorStore, OneTimeCodeStore, RateLimiter, SessionStore } from '@kiln/domain';

/**
 * The stateful ports of the built-in auth, bound together to AUTH_STORES by whoever registers the
 * AuthModule: PostgreSQL in main.ts (postgresAuthStores), memory in tests (testing/in-memory-auth-stores.ts).
 */
export interface AuthStores {
  readonly users: AuthUserRepository;
  readonly codes: OneTimeCodeStore;
  readonly sessions: SessionStore;
  readonly rateLimiter: RateLimiter;
  /** Second factors (TOTP), their secrets sealed at rest on PostgreSQL. */
  readonly factors: FactorStore;
}
