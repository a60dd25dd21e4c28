import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, migrate } from './data-source.js';
import { ENTITIES, MIGRATIONS } from './schema.js';
import { DEFAULT_TEST_DATABASE_URL, type TestDatabase, createTestDatabase } from './testing/test-database.js';

const url = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/** information_schema's data_type for each column type our entities use. */
const SQL_TYPES: Record<string, string> = {
  text: 'text',
  bigint: 'bigint',
  smallint: 'smallint',
  boolean: 'boolean',
  date: 'date',
  timestamptz: 'timestamp with time zone',
  uuid: 'uuid',
};

async function tablesIn(ds: DataSource, schema: string): Promise<string[]> {
  const rows: { table_name: string }[] = await ds.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  );
  return rows.map((r) => r.table_name);
}

describe('createDataSource and migrate', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('creates every table in the DataSource’s own schema, and search_path points there', async () => {
    expect(await tablesIn(db.dataSource, db.schema)).toEqual([
      'ai_turn_undo_entries',
      'ai_turns',
      'analytics_events',
      'auth_mfa_challenges',
      'auth_mfa_factors',
      'auth_one_time_codes',
      'auth_refresh_tokens',
      'auth_sessions',
      'auth_users',
      'credit_accounts',
      'credit_entries',
      'custom_domains',
      'local_checkout_sessions',
      'local_checkout_subscriptions',
      'mail_outbox',
      'marketing_contacts',
      'marketing_events',
      'marketing_outbox',
      'migrations',
      'processed_payment_events',
      'profiles',
      'project_attachments',
      'project_databases',
      'projects',
      'published_sites',
      'rate_limit_buckets',
      'releases',
      'site_screenshots',
      'subscription_state_versions',
      'vector_chunks',
    ]);
    expect(await db.dataSource.query('SHOW search_path')).toEqual([{ search_path: db.schema }]);
  });

  it('has ORM entities that match the migrated tables column for column', async () => {
    for (const entity of ENTITIES) {
      const metadata = db.dataSource.getMetadata(entity);
      const rows: { column_name: string; data_type: string; is_nullable: 'YES' | 'NO' }[] = await db.dataSource.query(
        `SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`,
        [db.schema, metadata.tableName],
      );
      const inDatabase = rows.map((r) => `${r.column_name} ${r.data_type}${r.is_nullable === 'YES' ? ' null' : ''}`).sort();
      const inEntity = metadata.columns
        .map((c) => `${c.databaseName} ${SQL_TYPES[String(c.type)] ?? String(c.type)}${c.isNullable ? ' null' : ''}`)
        .sort();
      expect({ table: metadata.tableName, columns: inEntity }).toEqual({ table: metadata.tableName, columns: inDatabase });
    }
  });

  it('finds nothing to do the second time', async () => {
    await migrate(db.dataSource);
    expect(await db.dataSource.showMigrations()).toBe(false);
    const rows: { name: string }[] = await db.dataSource.query('SELECT name FROM migrations ORDER BY id');
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => new m().name));
  });

  it('migrates one schema from two processes at once (advisory lock)', async () => {
    const schema = `test_${randomBytes(8).toString('hex')}`;
    const a = createDataSource({ url, schema });
    const b = createDataSource({ url, schema });
    try {
      await Promise.all([migrate(a), migrate(b)]);
      expect(await tablesIn(a, schema)).toContain('credit_entries');
    } finally {
      await a.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all([a.destroy(), b.destroy()]);
    }
  });

  it('can undo the migrations and apply them again', async () => {
    const other = await createTestDatabase();
    try {
      for (let i = 0; i < MIGRATIONS.length; i++) await other.dataSource.undoLastMigration();
      expect(await tablesIn(other.dataSource, other.schema)).toEqual(['migrations']);
      await migrate(other.dataSource);
      expect(await tablesIn(other.dataSource, other.schema)).toHaveLength(30);
    } finally {
      await other.drop();
    }
  });

  it('refuses a schema name that is not a plain identifier', () => {
    expect(() => createDataSource({ url, schema: 'x; DROP TABLE profiles' })).toThrow('Invalid schema name');
    expect(() => createDataSource({ url, schema: 'Upper' })).toThrow('Invalid schema name');
  });
});
