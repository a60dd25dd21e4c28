import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, migrate } from '../data-source.js';

/** Where integration tests find PostgreSQL when DATABASE_URL is unset. */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** Initialized and migrated; its connections use `schema`. */
  readonly dataSource: DataSource;
  readonly url: string;
  /** A fresh schema no other suite uses (`test_<random hex>`). */
  readonly schema: string;
  /** Drops the schema with everything in it and closes the DataSource. */
  drop(): Promise<void>;
}

/**
 * A migrated, private schema on DATABASE_URL for one test suite, so suites can run in parallel
 * against one server without seeing each other's rows.
 */
export async function createTestDatabase(options: { url?: string; poolSize?: number } = {}): Promise<TestDatabase> {
  const url = options.url ?? process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
  const schema = `test_${randomBytes(8).toString('hex')}`;
  const dataSource = createDataSource({ url, schema, ...(options.poolSize !== undefined ? { poolSize: options.poolSize } : {}) });
  try {
    await migrate(dataSource);
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    throw error;
  }
  return {
    dataSource,
    url,
    schema,
    async drop() {
      try {
        await dataSource.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await dataSource.destroy();
      }
    },
  };
}
