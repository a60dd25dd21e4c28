import { createHash } from 'node:crypto';
import type pg from 'pg';
import { DATA_API_FUNCTIONS_SQL } from './data-api-functions.js';

type Client = Pick<pg.Client, 'query'>;

/**
 * Which setup a project database has (DatabaseProvisioner.upgrade): the hash of the setup SQL and
 * the data API's functions, kept in `kiln.setup_version`. A newer Kiln whose setup differs (a
 * storage schema, realtime's triggers) brings older databases up to it; a current one is a
 * single read.
 */
export function setupVersion(setupSql: string): string {
  return createHash('sha256').update(setupSql).update(DATA_API_FUNCTIONS_SQL).digest('hex').slice(0, 32);
}

/** The version recorded in the database, or null (made before versions were recorded). */
export async function recordedSetupVersion(client: Client): Promise<string | null> {
  // Two statements: a table named in SQL is looked up when the statement is parsed, even in a branch never taken.
  const present = await client.query<{ present: boolean }>("SELECT to_regclass('kiln.setup_version') IS NOT NULL AS present");
  if (!present.rows[0]?.present) return null;
  const { rows } = await client.query<{ version: string }>('SELECT version FROM kiln.setup_version LIMIT 1');
  return rows[0]?.version ?? null;
}

/** Records `version`, in the transaction that ran the setup. */
export async function recordSetupVersion(client: Client, version: string): Promise<void> {
  await client.query('CREATE TABLE IF NOT EXISTS kiln.setup_version (version text NOT NULL)');
  await client.query('REVOKE ALL ON kiln.setup_version FROM PUBLIC');
  await client.query('DELETE FROM kiln.setup_version');
  await client.query('INSERT INTO kiln.setup_version (version) VALUES ($1)', [version]);
}

/**
 * Runs `apply` (the setup) in one transaction unless the database already has `version`; two
 * upgrades at once take turns (CREATE OR REPLACE of the same function at once fails).
 */
export async function upgradeSetup(client: Client, version: string, apply: () => Promise<void>): Promise<void> {
  if ((await recordedSetupVersion(client)) === version) return;
  await client.query('BEGIN');
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('kiln_setup'))");
    if ((await recordedSetupVersion(client)) !== version) {
      await apply();
      await recordSetupVersion(client, version);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
