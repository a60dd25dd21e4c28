import { createHash } from 'node:crypto';
import { type MigrationFile, type MigrationOptions, type MigrationOutcome, type SchemaMigrator, DatabaseServerDown, databaseNames } from '@kiln/domain';
import pg from 'pg';
import { isDatabaseUnavailable } from '../postgres/database-unavailable.js';
import { ATTACH_REALTIME_TRIGGERS } from './project-database-sql.js';

/**
 * How the migrator reaches a project database: `definer` — Kiln's superuser admin connection
 * (local provider), the SQL runs inside a SECURITY DEFINER function owned by the owner role;
 * `owner` — a login as the owner itself (Neon, where there is no superuser).
 */
export interface MigrationSession {
  readonly client: pg.Client;
  readonly mode: 'definer' | 'owner';
}

export interface PgSchemaMigratorOptions {
  /** Opens a connected client to the project database of `ref`; the migrator ends it. */
  readonly open: (ref: string) => Promise<MigrationSession>;
}

/** The definer's name for the owner's function that runs one file (re-made before every file). */
const RUNNER = 'kiln.run_migration';
/** The owner's own runner (Neon): a session-local function, so a file's COMMIT cannot end the run's transaction. */
const OWNER_RUNNER = 'pg_temp.kiln_run_migration';

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const checksumOf = (sql: string): string => createHash('sha256').update(sql, 'utf8').digest('hex');

const SETTINGS_REFUSED =
  'migrations may not change the settings of the database or of a role (ALTER DATABASE … SET, ALTER ROLE … SET): they would apply to every session, Kiln’s included';

/** The 1-based line of PostgreSQL's 1-based character position in `sql`. */
export function lineAt(sql: string, position: number): number {
  const chars = Array.from(sql).slice(0, Math.max(0, position - 1));
  return chars.filter((c) => c === '\n').length + 1;
}

interface PgError {
  readonly code?: string;
  readonly message: string;
  readonly position?: string;
  readonly internalPosition?: string;
}

/**
 * Applies migrations (docs/databases.md "Migrations"): every pending file in ONE transaction, each
 * file as the owner role under a statement timeout, recorded in kiln.schema_migrations with its
 * sha256. Local provider: the admin's session calls `kiln.run_migration(sql)`, a SECURITY DEFINER
 * function owned by the owner, so PostgreSQL itself refuses `SET ROLE`, `RESET ROLE` and `SET
 * SESSION AUTHORIZATION` inside (a plain `SET ROLE owner` could be undone by the SQL's own `RESET
 * ROLE`), and refuses COMMIT/ROLLBACK; the function is re-made before every file (the owner owns
 * it and could alter it), and the admin's own statements run with `search_path = pg_catalog,
 * pg_temp` (a file may change the session's search_path to shadow functions).
 */
export class PgSchemaMigrator implements SchemaMigrator {
  constructor(private readonly options: PgSchemaMigratorOptions) {}

  async migrate(ref: string, files: readonly MigrationFile[], options: MigrationOptions): Promise<MigrationOutcome> {
    const owner = databaseNames(ref).owner;
    const timeoutMs = Math.max(100, Math.floor(options.statementTimeoutMs));
    let session: MigrationSession;
    try {
      session = await this.options.open(ref);
    } catch (error) {
      throw isDatabaseUnavailable(error) || (error as PgError).code === 'ECONNREFUSED' ? new DatabaseServerDown((error as Error).message) : error;
    }
    const { client, mode } = session;
    client.on('error', () => undefined);
    const safe = async (): Promise<void> => {
      await client.query(`SELECT pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true)`);
    };
    try {
      await client.query('BEGIN');
      await safe();
      // One migrator at a time per database; the data API's reads and writes go on.
      await client.query('LOCK TABLE kiln.schema_migrations IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM kiln.schema_migrations ORDER BY name');
      const applied = new Map(rows.map((r) => [r.name, r.checksum]));
      const present = new Set(files.map((f) => f.name));
      for (const file of files) {
        const recorded = applied.get(file.name);
        if (recorded !== undefined && recorded !== checksumOf(file.sql)) {
          await client.query('ROLLBACK');
          return { kind: 'changed', file: file.name };
        }
      }
      const pending = files.filter((f) => !applied.has(f.name));
      const before = await this.tableIds(client);
      for (const file of pending) {
        await safe();
        if (file.sql.trim() !== '') {
          if (mode === 'definer') await this.makeRunner(client, owner);
          else await this.makeOwnerRunner(client);
          await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
          try {
            await client.query(`SELECT ${mode === 'definer' ? RUNNER : OWNER_RUNNER}($1::pg_catalog.text)`, [file.sql]);
          } catch (error) {
            const failure = error as PgError;
            // Not PostgreSQL's answer to the SQL (the connection is gone, the server shuts down): rethrow.
            if (failure.code === undefined || isDatabaseUnavailable(error)) throw error;
            await client.query('ROLLBACK').catch(() => undefined);
            const position = Number(failure.internalPosition ?? failure.position ?? NaN);
            return { kind: 'failed', file: file.name, line: Number.isFinite(position) ? lineAt(file.sql, position) : null, message: failure.message };
          }
          await client.query('SET LOCAL statement_timeout = 0');
          await safe();
          // Local only: there the admin (a superuser) opens later sessions into this database; on Neon only the owner does.
          if (mode === 'definer' && (await this.changedSettings(client, owner))) {
            await client.query('ROLLBACK');
            return { kind: 'failed', file: file.name, line: null, message: SETTINGS_REFUSED };
          }
        }
        await safe();
        await client.query('INSERT INTO kiln.schema_migrations (name, checksum, applied_at) VALUES ($1, $2, pg_catalog.now())', [file.name, checksumOf(file.sql)]);
      }
      await safe();
      if (pending.length > 0) await this.addOwnerPolicies(client, before);
      // Neon has no event trigger: the tables a migration made get realtime's trigger here, from their owner.
      if (pending.length > 0 && mode === 'owner') await client.query(ATTACH_REALTIME_TRIGGERS);
      if (mode === 'definer') await client.query(`DROP FUNCTION IF EXISTS ${RUNNER}(pg_catalog.text)`);
      await client.query('COMMIT');
      return { kind: 'applied', applied: pending.map((f) => f.name), kept: [...applied.keys()].filter((name) => !present.has(name)) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (isDatabaseUnavailable(error)) throw new DatabaseServerDown((error as Error).message);
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async applied(ref: string): Promise<readonly string[]> {
    let session: MigrationSession;
    try {
      session = await this.options.open(ref);
    } catch (error) {
      throw isDatabaseUnavailable(error) || (error as PgError).code === 'ECONNREFUSED' ? new DatabaseServerDown((error as Error).message) : error;
    }
    session.client.on('error', () => undefined);
    try {
      const { rows } = await session.client.query<{ name: string }>('SELECT name FROM kiln.schema_migrations ORDER BY name');
      return rows.map((r) => r.name);
    } finally {
      await session.client.end().catch(() => undefined);
    }
  }

  /** (Re)makes the owner's runner: SECURITY DEFINER, search_path public, callable by nobody else. */
  private async makeRunner(client: pg.Client, owner: string): Promise<void> {
    await client.query(`DROP FUNCTION IF EXISTS ${RUNNER}(pg_catalog.text)`);
    await client.query(
      `CREATE FUNCTION ${RUNNER}(sql pg_catalog.text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $kiln$ BEGIN EXECUTE sql; END $kiln$`,
    );
    await client.query(`REVOKE ALL ON FUNCTION ${RUNNER}(pg_catalog.text) FROM PUBLIC`);
    await client.query(`ALTER FUNCTION ${RUNNER}(pg_catalog.text) OWNER TO ${quoteIdent(owner)}`);
  }

  private async makeOwnerRunner(client: pg.Client): Promise<void> {
    await client.query(
      `CREATE OR REPLACE FUNCTION ${OWNER_RUNNER}(sql pg_catalog.text) RETURNS void LANGUAGE plpgsql SET search_path = public AS $kiln$ BEGIN EXECUTE sql; END $kiln$`,
    );
  }

  /**
   * Whether the database or the owner carries session defaults (pg_db_role_setting). Kiln sets
   * none; a file that did (`ALTER DATABASE … SET search_path = public, pg_catalog`) would shadow
   * catalog functions in every later session into this database, the admin's included.
   */
  private async changedSettings(client: pg.Client, owner: string): Promise<boolean> {
    const { rows } = await client.query(
      `SELECT 1 FROM pg_catalog.pg_db_role_setting s
        WHERE s.setdatabase = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())
           OR s.setrole = (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = $1)
        LIMIT 1`,
      [owner],
    );
    return rows.length > 0;
  }

  private async tableIds(client: pg.Client): Promise<Set<string>> {
    const { rows } = await client.query<{ oid: string }>(`SELECT c.oid::text AS oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')`);
    return new Set(rows.map((r) => r.oid));
  }

  /**
   * "Owner policies by default": a table this run created in `public` with no policy at all and
   * a `user_id uuid` column gets select/update/delete `using (user_id = auth.uid())` and insert
   * `with check (user_id = auth.uid())`, to authenticated. Other tables keep RLS with no policy:
   * nobody reaches a row until a migration says who may.
   */
  private async addOwnerPolicies(client: pg.Client, before: Set<string>): Promise<void> {
    const { rows } = await client.query<{ oid: string; name: string }>(
      `SELECT c.oid::text AS oid, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
          AND NOT EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid)
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'user_id' AND a.atttypid = 'pg_catalog.uuid'::pg_catalog.regtype AND NOT a.attisdropped)`,
    );
    for (const table of rows.filter((r) => !before.has(r.oid))) {
      const target = `public.${quoteIdent(table.name)}`;
      const mine = 'user_id OPERATOR(pg_catalog.=) auth.uid()';
      await client.query(`CREATE POLICY kiln_owner_select ON ${target} FOR SELECT TO authenticated USING (${mine})`);
      await client.query(`CREATE POLICY kiln_owner_insert ON ${target} FOR INSERT TO authenticated WITH CHECK (${mine})`);
      await client.query(`CREATE POLICY kiln_owner_update ON ${target} FOR UPDATE TO authenticated USING (${mine}) WITH CHECK (${mine})`);
      await client.query(`CREATE POLICY kiln_owner_delete ON ${target} FOR DELETE TO authenticated USING (${mine})`);
    }
  }
}

/** Neon's migrator: the owner's own login (no superuser on Neon; each database is its own Neon project). */
export function ownerSchemaMigrator(ownerClient: (ref: string) => Promise<pg.Client>): PgSchemaMigrator {
  return new PgSchemaMigrator({ open: async (ref) => ({ client: await ownerClient(ref), mode: 'owner' }) });
}

/** The local provider's migrator: Kiln's superuser admin connection into each project database. */
export function localSchemaMigrator(adminUrl: string): PgSchemaMigrator {
  return new PgSchemaMigrator({
    open: async (ref) => {
      const url = new URL(adminUrl);
      url.pathname = `/${databaseNames(ref).database}`;
      const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
      await client.connect();
      return { client, mode: 'definer' };
    },
  });
}
