import type { AuthUserRepository, Clock, OneTimeCodeStore, RateLimiter, SessionStore } from '@kiln/domain';
import { InMemoryAuthUserRepository, InMemoryOneTimeCodeStore, InMemoryRateLimiter, InMemorySessionStore } from '@kiln/domain/testing';

/** The stateful ports of the built-in auth, bound together to AUTH_STORES. */
export interface AuthStores {
  readonly users: AuthUserRepository;
  readonly codes: OneTimeCodeStore;
  readonly sessions: SessionStore;
  readonly rateLimiter: RateLimiter;
}

/**
 * The default binding: everything in process memory (lost on restart). The PostgreSQL module
 * replaces it through AuthModule.register({ stores }) with Pg users, codes and sessions; the
 * rate limiter may stay in memory (per process) behind a single API process.
 */
export function createInMemoryAuthStores(clock: Clock): AuthStores {
  return {
    users: new InMemoryAuthUserRepository(),
    codes: new InMemoryOneTimeCodeStore(),
    sessions: new InMemorySessionStore(),
    rateLimiter: new InMemoryRateLimiter(clock),
  };
}
