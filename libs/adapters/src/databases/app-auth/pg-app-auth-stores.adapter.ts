import { type AuthUserRepository, type OneTimeCodeStore, type SessionStore, databaseNames } from '@kiln/domain';
import type { DataSource } from 'typeorm';
import { PgAuthUserRepository } from '../../postgres/auth/pg-auth-user-repository.adapter.js';
import { PgOneTimeCodeStore } from '../../postgres/auth/pg-one-time-code-store.adapter.js';
import { PgSessionStore } from '../../postgres/auth/pg-session-store.adapter.js';
import { createDataSource } from '../../postgres/data-source.js';
import { AuthSchema1795392000000 } from '../../postgres/migrations/1795392000000-auth-schema.js';
import { PgUnitOfWork } from '../../postgres/pg-unit-of-work.js';

/** The stateful auth ports of one project's app users. */
export interface ProjectAuthStores {
  readonly users: AuthUserRepository;
  readonly codes: OneTimeCodeStore;
  readonly sessions: SessionStore;
}

export type PgAppAuthStoresOptions = (
  | {
      /** A superuser connection to the server holding the project databases (LocalPostgresProvisioner's admin URL). */
      readonly adminUrl: string;
    }
  | {
      /**
       * The URL of a login that owns project `ref`'s database, asked for when its pool opens
       * (Neon: NeonProvisioner.ownerUrl — the owner's URI fetched from Neon, held by the pool in
       * memory only). Rejecting with DatabaseServerDown is "unavailable" (503).
       */
      readonly ownerUrl: (ref: string) => Promise<string>;
    }
) & {
  /** Project databases kept connected at once (least recently used closed first). Default 32. */
  readonly maxOpen?: number;
  /** Connections per project database. Default 2. */
  readonly poolSize?: number;
};

interface Entry {
  readonly dataSource: DataSource;
  readonly stores: ProjectAuthStores;
}

/** Where the app users live in each project database; the data API's roles get nothing here. */
export const APP_AUTH_SCHEMA = 'auth';

/**
 * App users in each project's own database, schema `auth` (docs/decisions.md "App sign-in
 * store"): the tables and adapters of Kiln's own built-in auth (migration AuthSchema, the
 * Pg*Store adapters) reached through Kiln's admin connection (Neon: the database owner's login)
 * with `search_path=auth`, so a project's users are isolated by the database itself and go when
 * it is dropped. The tables are created on first use, under an advisory lock, and no grant is
 * given on them: `anon`, `authenticated` and the authenticator can call auth.uid() but cannot read
 * a password hash or a refresh token; on the local provider neither can the owner role (which
 * runs AI-written migrations). On Neon the owner creates them, so it owns them (Neon gives no
 * superuser; as on Supabase, whose migrations' role can read auth.users).
 */
export class PgAppAuthStores {
  private readonly open = new Map<string, Promise<Entry>>();

  constructor(private readonly options: PgAppAuthStoresOptions) {}

  /** The stores of project `ref` (a validated ref: databaseNames throws on anything else). */
  async forRef(ref: string): Promise<ProjectAuthStores> {
    const cached = this.open.get(ref);
    if (cached) {
      // Most recently used last.
      this.open.delete(ref);
      this.open.set(ref, cached);
      return (await cached).stores;
    }
    const entry = this.connect(ref);
    this.open.set(ref, entry);
    entry.catch(() => this.open.delete(ref));
    await this.evict();
    return (await entry).stores;
  }

  /** Closes one project's connections (after its database is dropped). */
  async release(ref: string): Promise<void> {
    const entry = this.open.get(ref);
    this.open.delete(ref);
    if (entry) await closeEntry(entry);
  }

  async close(): Promise<void> {
    const entries = [...this.open.values()];
    this.open.clear();
    await Promise.all(entries.map(closeEntry));
  }

  private async evict(): Promise<void> {
    const max = this.options.maxOpen ?? 32;
    while (this.open.size > max) {
      const [oldest] = this.open.keys();
      if (oldest === undefined) return;
      await this.release(oldest);
    }
  }

  private async urlOf(ref: string): Promise<string> {
    const database = databaseNames(ref).database;
    if ('ownerUrl' in this.options) {
      const url = new URL(await this.options.ownerUrl(ref));
      if (url.pathname !== `/${database}`) throw new Error(`The owner URL of ${ref} names another database`);
      return url.toString();
    }
    const url = new URL(this.options.adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  }

  private async connect(ref: string): Promise<Entry> {
    const url = await this.urlOf(ref);
    const dataSource = createDataSource({ url, schema: APP_AUTH_SCHEMA, poolSize: this.options.poolSize ?? 2 });
    await dataSource.initialize();
    try {
      await ensureAppAuthSchema(dataSource);
    } catch (error) {
      await dataSource.destroy().catch(() => undefined);
      throw error;
    }
    const tx = new PgUnitOfWork(dataSource);
    return { dataSource, stores: { users: new PgAuthUserRepository(tx), codes: new PgOneTimeCodeStore(tx), sessions: new PgSessionStore(tx) } };
  }
}

async function closeEntry(entry: Promise<Entry>): Promise<void> {
  const opened = await entry.catch(() => null);
  if (opened?.dataSource.isInitialized) await opened.dataSource.destroy();
}

/** Creates the auth tables in schema `auth` of a project database once (idempotent, concurrency-safe). */
export async function ensureAppAuthSchema(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.startTransaction();
    await runner.query(`SELECT pg_advisory_xact_lock(hashtext('kiln:app-auth-schema'))`);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${APP_AUTH_SCHEMA}`);
    const [present] = (await runner.query(`SELECT to_regclass('${APP_AUTH_SCHEMA}.auth_users') IS NOT NULL AS present`)) as { present: boolean }[];
    if (!present?.present) {
      // search_path is `auth`: Kiln's own auth migration creates the same tables there.
      await new AuthSchema1795392000000().up(runner);
      await runner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${APP_AUTH_SCHEMA} FROM PUBLIC`);
      await runner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${APP_AUTH_SCHEMA} FROM PUBLIC`);
    }
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}
