import { randomBytes } from 'node:crypto';
import {
  type DatabaseConnection,
  type DatabaseInspection,
  type DatabaseLimits,
  type DatabaseProvisioner,
  DatabaseServerDown,
  type SampleRow,
  databaseNames,
} from '@kiln/domain';
import pg from 'pg';
import { installDataApiFunctions } from './data-api-functions.js';
import { isDatabaseUnavailable } from '../postgres/database-unavailable.js';
import { INSPECT_SQL, ident, projectDatabaseSetup } from './project-database-sql.js';
import { recordSetupVersion, setupVersion, upgradeSetup } from './setup-version.js';
import { readTableSample } from './table-sample-sql.js';

export interface LocalPostgresProvisionerOptions {
  /** Kiln's own server, as a superuser (DATABASE_URL or the embedded server's URL). */
  readonly adminUrl: string;
  /** The host the data API dials for project databases (default: the admin URL's host). */
  readonly host?: string;
  readonly port?: number;
}

const DUPLICATE = new Set(['42P04', '42710']); // duplicate_database, duplicate_object

/** Runs `work`; an unreachable server becomes DatabaseServerDown (the API's 503), anything else rethrows. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DatabaseServerDown || isDatabaseUnavailable(error)) {
      throw error instanceof DatabaseServerDown ? error : new DatabaseServerDown(error instanceof Error ? error.message : String(error));
    }
    const code = (error as { code?: unknown }).code;
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === 'EHOSTUNREACH') {
      throw new DatabaseServerDown(String((error as Error).message));
    }
    throw error;
  }
}

/**
 * One database per project on Kiln's own PostgreSQL server (docs/databases.md "Conventions"):
 * `kiln_app_<ref>`, owned by `kiln_app_<ref>_owner` (NOLOGIN), reached by the data API as
 * `kiln_app_<ref>_authenticator` (least privilege, CONNECTION LIMIT, timeouts), CONNECT revoked
 * from PUBLIC on every database of the server, and RLS switched on for every new table by an
 * event trigger. Needs a superuser (event triggers and roles); every identifier comes from a
 * validated ref.
 */
export class LocalPostgresProvisioner implements DatabaseProvisioner {
  readonly provider = 'local' as const;
  private readonly admin: pg.Pool;
  private readonly url: URL;

  constructor(private readonly options: LocalPostgresProvisionerOptions) {
    this.url = new URL(options.adminUrl);
    this.admin = new pg.Pool({ connectionString: options.adminUrl, max: 2, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 10_000 });
    this.admin.on('error', () => undefined); // an idle client's lost connection: the next query reconnects
  }

  async provision(ref: string, limits: DatabaseLimits): Promise<DatabaseConnection> {
    const names = databaseNames(ref);
    const password = randomBytes(24).toString('hex');
    const connections = Math.max(1, Math.floor(limits.connections));
    const timeoutMs = Math.max(100, Math.floor(limits.statementTimeoutMs));
    return this.serialized(async (admin) => {
      await this.requireSuperuser(admin);
      for (const role of ['anon', 'authenticated']) await ignoringDuplicate(admin, `CREATE ROLE ${role} NOLOGIN NOINHERIT NOBYPASSRLS`);
      await ignoringDuplicate(admin, `CREATE ROLE ${ident(names.owner)} NOLOGIN NOINHERIT`);
      await ignoringDuplicate(admin, `CREATE ROLE ${ident(names.authenticator)} LOGIN`);
      const authenticator = ident(names.authenticator);
      await admin.query(
        `ALTER ROLE ${authenticator} LOGIN NOINHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${connections} PASSWORD ${pg.escapeLiteral(password)}`,
      );
      await admin.query(`ALTER ROLE ${authenticator} SET statement_timeout = ${timeoutMs}`);
      await admin.query(`ALTER ROLE ${authenticator} SET idle_in_transaction_session_timeout = ${timeoutMs * 2}`);
      await admin.query(`GRANT anon, authenticated TO ${authenticator}`);
      await ignoringDuplicate(admin, `CREATE DATABASE ${ident(names.database)} OWNER ${ident(names.owner)} TEMPLATE template0 ENCODING 'UTF8'`);
      await this.inProjectDatabase(names.database, async (client) => {
        await client.query('BEGIN');
        const setup = projectDatabaseSetup(ref);
        await client.query(setup);
        // The data API's own RPC (update_many_records), owned by the owner role so migrations may replace it.
        await installDataApiFunctions(client, names.owner);
        await recordSetupVersion(client, setupVersion(setup));
        await client.query('COMMIT');
      });
      await this.revokePublicConnect(admin);
      return {
        host: this.options.host ?? (this.url.hostname || '127.0.0.1'),
        port: this.options.port ?? Number(this.url.port || 5432),
        database: names.database,
        user: names.authenticator,
        password,
        ssl: false,
      };
    });
  }

  /** Refs upgraded by this process: later calls answer at once (another process's upgrade is the same SQL). */
  private readonly upToDate = new Set<string>();

  async upgrade(ref: string): Promise<boolean> {
    const names = databaseNames(ref);
    if (this.upToDate.has(ref)) return true;
    const setup = projectDatabaseSetup(ref);
    return guarded(async () => {
      const { rowCount } = await this.admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [names.database]);
      if (rowCount === 0) return false;
      await this.inProjectDatabase(names.database, (client) =>
        upgradeSetup(client, setupVersion(setup), async () => {
          await client.query(setup);
          await installDataApiFunctions(client, names.owner);
        }),
      );
      this.upToDate.add(ref);
      return true;
    });
  }

  async drop(ref: string): Promise<void> {
    const names = databaseNames(ref);
    this.upToDate.delete(ref);
    await this.serialized(async (admin) => {
      await admin.query(`DROP DATABASE IF EXISTS ${ident(names.database)} WITH (FORCE)`);
      for (const role of [names.authenticator, names.owner]) {
        const exists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
        if (exists.rowCount === 0) continue;
        // Its memberships and any grant left in Kiln's own database go with it.
        await admin.query(`DROP OWNED BY ${ident(role)}`);
        await admin.query(`DROP ROLE IF EXISTS ${ident(role)}`);
      }
    });
  }

  async inspect(ref: string): Promise<DatabaseInspection | null> {
    const names = databaseNames(ref);
    return guarded(async () => {
      const exists = await this.admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [names.database]);
      if (exists.rowCount === 0) return null;
      return this.inProjectDatabase(names.database, async (client) => {
        const { rows } = await client.query<{ size_bytes: string; tables: Array<{ name: string; rls: boolean; rows: number; columns: Array<{ name: string; type: string; nullable: boolean }> }> }>(INSPECT_SQL);
        const row = rows[0]!;
        return {
          sizeBytes: Number(row.size_bytes),
          tables: row.tables.map((t) => ({ schema: 'public', name: t.name, rlsEnabled: t.rls, rowEstimate: Number(t.rows), columns: t.columns })),
        };
      });
    });
  }

  async sampleRows(ref: string, table: string, limit: number): Promise<SampleRow[] | null> {
    const names = databaseNames(ref);
    return guarded(async () => {
      const exists = await this.admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [names.database]);
      if (exists.rowCount === 0) return null;
      // As the tables' owner (what migrations run as), not as the superuser.
      return this.inProjectDatabase(names.database, (client) => readTableSample(client, table, limit, names.owner));
    });
  }

  /** Closes the admin pool. */
  async close(): Promise<void> {
    await this.admin.end();
  }

  /** A connection to a project database as the admin, for one piece of work. */
  private async inProjectDatabase<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const url = new URL(this.options.adminUrl);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Runs `work` on one admin connection holding a server-wide advisory lock: concurrent GRANTs and
   * REVOKEs on the same database's ACL fail with "tuple concurrently updated", and provisioning is
   * rare enough to go one at a time. The lock goes with the session if the connection dies.
   */
  private async serialized<T>(work: (admin: pg.PoolClient) => Promise<T>): Promise<T> {
    return guarded(async () => {
      const admin = await this.admin.connect();
      let broken = false;
      try {
        await admin.query('SELECT pg_advisory_lock($1)', [PROVISIONING_LOCK]);
        try {
          return await work(admin);
        } finally {
          await admin.query('SELECT pg_advisory_unlock($1)', [PROVISIONING_LOCK]).catch(() => {
            broken = true;
          });
        }
      } finally {
        admin.release(broken);
      }
    });
  }

  /** Every database of the server except template0 (which takes no connections) loses PUBLIC's CONNECT. */
  private async revokePublicConnect(admin: pg.PoolClient): Promise<void> {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datallowconn AND datname <> 'template0'");
    for (const { datname } of rows) await admin.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${ident(datname)} FROM PUBLIC`);
  }

  private async requireSuperuser(admin: pg.PoolClient): Promise<void> {
    const { rows } = await admin.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    if (!rows[0]?.rolsuper) {
      throw new DatabaseServerDown('the local database provider needs Kiln to connect as a superuser (DATABASE_URL) to create project databases');
    }
  }
}

/** The advisory lock key of provisioning and dropping (any constant; "kiln_db" in ASCII). */
const PROVISIONING_LOCK = 0x6b696c6e5f6462;

/** CREATE … that an earlier run may have done already. */
async function ignoringDuplicate(admin: pg.PoolClient, sql: string): Promise<void> {
  try {
    await admin.query(sql);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // A concurrent CREATE ROLE of the same name can also fail on the catalog's unique index (23505).
    if (typeof code === 'string' && (DUPLICATE.has(code) || code === '23505')) return;
    throw error;
  }
}
