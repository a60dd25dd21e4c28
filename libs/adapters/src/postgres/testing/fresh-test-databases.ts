// Spec-only helper (imports Jest): not exported from the package index, which the API loads.
import { afterAll } from '@jest/globals';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * For a spec file: a function that makes a fresh test database each call, all of them dropped
 * after the file's tests (registers the afterAll hook).
 */
export function freshTestDatabases(): () => Promise<TestDatabase> {
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    await Promise.all(databases.map((db) => db.drop()));
  });
  return async () => {
    const db = await createTestDatabase();
    databases.push(db);
    return db;
  };
}
