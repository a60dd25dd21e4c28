import type { Provider } from '@nestjs/common';
import { PgAuthUserRepository, PgFactorStore, PgOneTimeCodeStore, PgSessionStore, type PgUnitOfWork, loadDatabaseSecretBox } from '@kiln/adapters';
import type { RateLimiter } from '@kiln/domain';
import type { AuthStores } from '../auth/auth-stores.js';
import { AUTH_STORES } from '../auth/auth.tokens.js';
import type { AppConfig } from '../config.js';
import { APP_CONFIG, RATE_LIMITER } from '../tokens.js';
import { PG_UNIT_OF_WORK } from './postgres-persistence.module.js';

/**
 * AUTH_STORES on PostgreSQL: accounts, one-time codes and sessions in the app's database (they
 * join the request's transaction through PG_UNIT_OF_WORK), and the persistence module's
 * RATE_LIMITER (PgRateLimiter: buckets shared by every API process). TOTP secrets are sealed with
 * the same SecretBox as the project databases' secrets (DATABASE_SECRETS_KEY, or the key
 * generated under DATA_DIR/secrets).
 *
 *   AuthModule.register({ stores: postgresAuthStores })   // with PostgresPersistenceModule.forRoot(…)
 */
export const postgresAuthStores: Provider = {
  provide: AUTH_STORES,
  useFactory: async (tx: PgUnitOfWork, rateLimiter: RateLimiter, config: AppConfig): Promise<AuthStores> => ({
    users: new PgAuthUserRepository(tx),
    codes: new PgOneTimeCodeStore(tx),
    sessions: new PgSessionStore(tx),
    rateLimiter,
    factors: new PgFactorStore(tx, await loadDatabaseSecretBox({ key: config.databases.secretsKey, dataDir: config.dataDir })),
  }),
  inject: [PG_UNIT_OF_WORK, RATE_LIMITER, APP_CONFIG],
};
