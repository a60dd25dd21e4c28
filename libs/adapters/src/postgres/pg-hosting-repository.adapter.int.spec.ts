import { afterAll } from '@jest/globals';
import { createProfile, newProject } from '@kiln/domain';
import { hostingRepositoryContract } from '@kiln/domain/contracts';
import { PgHostingRepository } from './pg-hosting-repository.adapter.js';
import { PgProfileRepository } from './pg-profile-repository.adapter.js';
import { PgProjectRepository } from './pg-project-repository.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

hostingRepositoryContract('PgHostingRepository', async () => {
  const db = await createTestDatabase();
  databases.push(db);
  const tx = new PgUnitOfWork(db.dataSource);
  const profiles = new PgProfileRepository(tx);
  const projects = new PgProjectRepository(tx);
  await profiles.insertIfAbsent(createProfile({ id: 'owner', email: 'owner@example.com', referralCode: 'OWNER2' }, new Date(0)));
  let n = 0;
  return {
    hosting: new PgHostingRepository(tx),
    // Every hosting row belongs to a project (foreign keys).
    newProject: async () => {
      const project = newProject({ id: `project-${(n += 1)}`, creatorId: 'owner', name: `Site ${n}` }, new Date(0));
      await projects.insert(project);
      return project.id;
    },
  };
});
