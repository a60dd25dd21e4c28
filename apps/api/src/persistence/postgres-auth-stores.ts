import type { Provider } from '@nestjs/common';
import { PgAuthUserRepository, PgOneTimeCodeStore, PgSessionStore, type PgUnitOfWork } from '@kiln/adapters';
import type { Clock } from '@kiln/domain';
import { InMemoryRateLimiter } from '@kiln/domain/testing';
import type { AuthStores } from '../auth/auth-stores.js';
import { AUTH_STORES } from '../auth/auth.tokens.js';
import { CLOCK } from '../tokens.js';
import { PG_UNIT_OF_WORK } from './postgres-persistence.module.js';

/**
 * AUTH_STORES on PostgreSQL: accounts, one-time codes and sessions in the app's database (they
 * join the request's transaction through PG_UNIT_OF_WORK); the rate limiter stays in process
 * memory, which is right for a single API process.
 *
 *   AuthModule.register({ stores: postgresAuthStores })   // with PostgresPersistenceModule.forRoot(…)
 */
export const postgresAuthStores: Provider = {
  provide: AUTH_STORES,
  useFactory: (tx: PgUnitOfWork, clock: Clock): AuthStores => ({
    users: new PgAuthUserRepository(tx),
    codes: new PgOneTimeCodeStore(tx),
    sessions: new PgSessionStore(tx),
    rateLimiter: new InMemoryRateLimiter(clock),
  }),
  inject: [PG_UNIT_OF_WORK, CLOCK],
};
