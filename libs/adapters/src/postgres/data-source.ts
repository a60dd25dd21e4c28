import pg from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { markingPgDriver } from './database-unavailable.js';
import { ENTITIES, MIGRATIONS } from './schema.js';

export interface PostgresOptions {
  /** A connection string: `postgres://user:password@host:port/database`. */
  readonly url: string;
  /**
   * A PostgreSQL schema holding every table (created by `migrate`). Each connection's
   * `search_path` is set to it, so raw SQL and TypeORM agree. Default: the server's (public).
   */
  readonly schema?: string;
  /** Connections in the pool (pg's default: 10). */
  readonly poolSize?: number;
  /** Log every query (TypeORM's logger). */
  readonly logging?: boolean;
  /**
   * How long getting a connection may take (connecting, or waiting for a free one in the pool)
   * before it fails as "database unavailable" (default 10 s; pg's own default waits forever).
   */
  readonly connectTimeoutMs?: number;
}

/** See PostgresOptions.connectTimeoutMs. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Lower-case identifiers only: the name goes into `search_path` and `CREATE SCHEMA`. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid schema name "${schema}": use lower-case letters, digits and _ (at most 63)`);
  }
}

const DATE_OID = 1082;

/**
 * pg turns `date` values into a JavaScript Date at local midnight, which is the previous day in
 * UTC west of Greenwich. Keep them as the 'YYYY-MM-DD' text PostgreSQL sends (what the domain
 * holds). Per pool, not through pg's global `types`, so nothing else in the process changes.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === DATE_OID && format !== 'binary' ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * A TypeORM DataSource for Kiln's PostgreSQL database (not yet initialized): explicit entity and
 * migration lists, no synchronize (the committed migrations are the schema), `bigint` left as
 * strings for the mappers to range-check.
 */
export function createDataSource(options: PostgresOptions): DataSource {
  if (options.schema !== undefined) assertSchemaName(options.schema);
  const extra: Record<string, unknown> = { types };
  if (options.poolSize !== undefined) extra['max'] = options.poolSize;
  if (options.schema !== undefined) extra['options'] = `-c search_path=${options.schema}`;
  const config: DataSourceOptions = {
    type: 'postgres',
    // pg with connect failures tagged, so the API can tell an outage from a bug (isDatabaseUnavailable).
    driver: markingPgDriver,
    connectTimeoutMS: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    url: options.url,
    ...(options.schema !== undefined ? { schema: options.schema } : {}),
    entities: [...ENTITIES],
    migrations: [...MIGRATIONS],
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // gen_random_uuid() is built into PostgreSQL 13+; TypeORM must not try to CREATE EXTENSION.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: options.logging ?? false,
    extra,
  };
  return new DataSource(config);
}

/** The schema a DataSource was created for, if any. */
export function schemaOf(dataSource: DataSource): string | undefined {
  return (dataSource.options as { schema?: string }).schema;
}

/**
 * Runs the pending migrations (initializing the DataSource if needed). Creates the DataSource's
 * schema first. An advisory lock serialises concurrent runs (two API instances starting at once).
 */
export async function migrate(dataSource: DataSource): Promise<void> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const schema = schemaOf(dataSource);
  const runner = dataSource.createQueryRunner();
  const lock = `kiln:migrate:${schema ?? 'default'}`;
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
    try {
      if (schema !== undefined) await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]);
    }
  } finally {
    await runner.release();
  }
}
