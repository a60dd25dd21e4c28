import { randomUUID } from 'node:crypto';
import { afterAll } from '@jest/globals';
import { createProfile, newProject } from '@kiln/domain';
import { attachmentRepositoryContract } from '@kiln/domain/contracts';
import { PgAttachmentRepository } from './pg-attachment-repository.adapter.js';
import { PgProfileRepository } from './pg-profile-repository.adapter.js';
import { PgProjectRepository } from './pg-project-repository.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((db) => db.drop()));
});

attachmentRepositoryContract('PgAttachmentRepository', async () => {
  const db = await createTestDatabase();
  databases.push(db);
  const tx = new PgUnitOfWork(db.dataSource);
  await new PgProfileRepository(tx).insertIfAbsent(createProfile({ id: 'owner', email: 'owner@example.com', referralCode: 'OWNERD' }, new Date(0)));
  const projects = new PgProjectRepository(tx);
  let n = 0;
  return {
    repository: new PgAttachmentRepository(tx),
    newProject: async () => {
      n += 1;
      await projects.insert(newProject({ id: `project-${n}`, creatorId: 'owner', name: `App ${n}` }, new Date(0)));
      return { projectId: `project-${n}`, userId: 'owner' };
    },
    newId: () => randomUUID(),
  };
});
