// sample_rows on a project database (docs/databases.md "The assistant and the database"): the
// same read for every provider, on a connection the provisioner opened to the project database.
import { SAMPLE_ROWS_MAX, SAMPLE_VALUE_MAX_CHARS, isSampleTableName, type SampleRow } from '@kiln/domain';
import type pg from 'pg';
import { ident } from './project-database-sql.js';

/** A sample is a glance: anything slower than this is cancelled by the server. */
export const SAMPLE_STATEMENT_TIMEOUT_MS = 2_000;

// Ordinary and partitioned tables only: a view or a foreign table would run someone's code.
const TABLE_OF_PUBLIC = `SELECT c.relname FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
  WHERE ns.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname = $1`;

/**
 * Each row as a JSON object in column order; a value longer than SAMPLE_VALUE_MAX_CHARS (as text)
 * is cut on the server, so a large column never crosses the wire. `table` is a catalog name,
 * quoted as an identifier.
 */
const sampleSql = (table: string): string => `
SELECT (SELECT coalesce(json_object_agg(e.key, CASE
      WHEN json_typeof(e.value) = 'string' AND length(e.value #>> '{}') > ${SAMPLE_VALUE_MAX_CHARS} THEN to_json(left(e.value #>> '{}', ${SAMPLE_VALUE_MAX_CHARS}) || '…')
      WHEN json_typeof(e.value) <> 'string' AND length(e.value::text) > ${SAMPLE_VALUE_MAX_CHARS} THEN to_json(left(e.value::text, ${SAMPLE_VALUE_MAX_CHARS}) || '…')
      ELSE e.value END), '{}'::json)
    FROM json_each(row_to_json(t)) e) AS row
FROM public.${ident(table)} t
LIMIT $1`;

/**
 * At most `limit` (1..SAMPLE_ROWS_MAX) rows of `table` of public, in a READ ONLY transaction with
 * a short statement timeout, as `role` when given (the tables' owner: no superuser reads them);
 * null when public has no such table. The name is looked up in the catalog, never put into SQL
 * as written.
 */
export async function readTableSample(client: pg.ClientBase, table: string, limit: number, role?: string): Promise<SampleRow[] | null> {
  if (!isSampleTableName(table)) return null;
  const rows = Math.min(SAMPLE_ROWS_MAX, Math.max(1, Math.floor(limit) || 1));
  await client.query('BEGIN TRANSACTION READ ONLY');
  try {
    await client.query(`SET LOCAL statement_timeout = ${SAMPLE_STATEMENT_TIMEOUT_MS}`);
    if (role !== undefined) await client.query(`SET LOCAL ROLE ${ident(role)}`);
    const found = await client.query<{ relname: string }>(TABLE_OF_PUBLIC, [table]);
    const name = found.rows[0]?.relname;
    if (name === undefined) return null;
    const sample = await client.query<{ row: SampleRow }>(sampleSql(name), [rows]);
    return sample.rows.map((r) => r.row);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}
