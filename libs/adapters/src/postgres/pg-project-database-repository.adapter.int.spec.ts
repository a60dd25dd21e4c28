import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from '@jest/globals';
import { createProfile, newProject } from '@kiln/domain';
import { projectDatabaseRepositoryContract } from '@kiln/domain/contracts';
import { SecretBox } from '../databases/secret-box.js';
import { PgProfileRepository } from './pg-profile-repository.adapter.js';
import { PgProjectDatabaseRepository } from './pg-project-database-repository.adapter.js';
import { PgProjectRepository } from './pg-project-repository.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

async function setUp() {
  const db = await createTestDatabase();
  databases.push(db);
  const tx = new PgUnitOfWork(db.dataSource);
  await new PgProfileRepository(tx).insertIfAbsent(createProfile({ id: 'owner', email: 'owner@example.com', referralCode: 'OWNERD' }, new Date(0)));
  const projects = new PgProjectRepository(tx);
  let n = 0;
  const newProjectId = async () => {
    const project = newProject({ id: `project-${(n += 1)}`, creatorId: 'owner', name: `App ${n}` }, new Date(0));
    await projects.insert(project);
    return project.id;
  };
  return { db, tx, newProjectId };
}

projectDatabaseRepositoryContract('PgProjectDatabaseRepository', async () => {
  const { tx, newProjectId } = await setUp();
  return {
    databases: new PgProjectDatabaseRepository(tx, new SecretBox(randomBytes(32))),
    newProject: async () => ({ projectId: await newProjectId(), ownerId: 'owner' }),
  };
});

it('keeps the password and the JWT secret sealed at rest; another key cannot open them', async () => {
  const { db, tx, newProjectId } = await setUp();
  const repository = new PgProjectDatabaseRepository(tx, new SecretBox(randomBytes(32)));
  const projectId = await newProjectId();
  const ref = 'abcdefghij0123456789';
  const record = {
    id: 'db-sealed',
    projectId,
    ownerId: 'owner',
    ref,
    provider: 'local' as const,
    status: 'ready' as const,
    connection: { host: '127.0.0.1', port: 5432, database: `kiln_app_${ref}`, user: `kiln_app_${ref}_authenticator`, password: 'the-password-1234', ssl: false },
    jwtSecret: 'the-jwt-secret-abcdefghijklmnopqrstuvwxyz0123456',
    createdAt: new Date(1000),
    updatedAt: new Date(2000),
  };
  expect(await repository.insert(record)).toBe(true);
  const raw = await db.dataSource.query('SELECT * FROM project_databases WHERE id = $1', ['db-sealed']);
  expect(JSON.stringify(raw)).not.toContain('the-password');
  expect(JSON.stringify(raw)).not.toContain('the-jwt-secret');
  expect(await repository.findByRef(ref)).toEqual(record);
  await expect(new PgProjectDatabaseRepository(tx, new SecretBox(randomBytes(32))).findByRef(ref)).rejects.toThrow();
});
