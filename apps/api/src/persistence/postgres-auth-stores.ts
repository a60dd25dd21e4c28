import type { Provider } from '@nestjs/common';
import { PgAuthUserRepository, PgOneTimeCodeStore, PgSessionStore, type PgUnitOfWork } from '@kiln/adapters';
import type { RateLimiter } from '@kiln/domain';
import type { AuthStores } from '../auth/auth-stores.js';
import { AUTH_STORES } from '../auth/auth.tokens.js';
import { RATE_LIMITER } from '../tokens.js';
import { PG_UNIT_OF_WORK } from './postgres-persistence.module.js';

/**
 * AUTH_STORES on PostgreSQL: accounts, one-time codes and sessions in the app's database (they
 * join the request's transaction through PG_UNIT_OF_WORK), and the persistence module's
 * RATE_LIMITER (PgRateLimiter: buckets shared by every API process).
 *
 *   AuthModule.register({ stores: postgresAuthStores })   // with PostgresPersistenceModule.forRoot(…)
 */
export const postgresAuthStores: Provider = {
  provide: AUTH_STORES,
  useFactory: (tx: PgUnitOfWork, rateLimiter: RateLimiter): AuthStores => ({
    users: new PgAuthUserRepository(tx),
    codes: new PgOneTimeCodeStore(tx),
    sessions: new PgSessionStore(tx),
    rateLimiter,
  }),
  inject: [PG_UNIT_OF_WORK, RATE_LIMITER],
};
