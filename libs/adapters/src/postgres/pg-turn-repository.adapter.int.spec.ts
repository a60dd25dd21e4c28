import { afterAll } from '@jest/globals';
import { turnRepositoryContract } from '@kiln/domain/contracts';
import { PgTurnRepository } from './pg-turn-repository.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

turnRepositoryContract('PgTurnRepository', async () => {
  const db = await createTestDatabase();
  databases.push(db);
  return new PgTurnRepository(new PgUnitOfWork(db.dataSource));
});
