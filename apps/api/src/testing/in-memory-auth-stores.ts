import type { Provider } from '@nestjs/common';
import type { Clock } from '@kiln/domain';
import { InMemoryAuthUserRepository, InMemoryFactorStore, InMemoryOneTimeCodeStore, InMemoryRateLimiter, InMemorySessionStore } from '@kiln/domain/testing';
import type { AuthStores } from '../auth/auth-stores.js';
import { AUTH_STORES } from '../auth/auth.tokens.js';
import { CLOCK } from '../tokens.js';

/** The auth's stores in process memory (lost when the app closes), rate limiter included. */
export function createInMemoryAuthStores(clock: Clock): AuthStores {
  return {
    users: new InMemoryAuthUserRepository(),
    codes: new InMemoryOneTimeCodeStore(),
    sessions: new InMemorySessionStore(),
    rateLimiter: new InMemoryRateLimiter(clock),
    factors: new InMemoryFactorStore(),
  };
}

/**
 * AUTH_STORES in memory, for tests: `AuthModule.register({ stores: inMemoryAuthStores })`. It needs
 * only CLOCK, so it also serves an AuthModule tested without any persistence module.
 */
export const inMemoryAuthStores: Provider = {
  provide: AUTH_STORES,
  useFactory: (clock: Clock) => createInMemoryAuthStores(clock),
  inject: [CLOCK],
};
