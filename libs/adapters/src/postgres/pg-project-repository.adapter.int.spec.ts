import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProfile, newProject } from '@kiln/domain';
import { projectRepositoryContract } from '@kiln/domain/contracts';
import { PgProfileRepository } from './pg-profile-repository.adapter.js';
import { PgProjectRepository } from './pg-project-repository.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

/** Creators are profiles (projects.creator_id references profiles.id). */
function creators(tx: PgUnitOfWork) {
  const profiles = new PgProfileRepository(tx);
  let n = 0;
  return async (): Promise<string> => {
    const id = `creator-${++n}`;
    await profiles.insertIfAbsent(createProfile({ id, email: `${id}@example.com`, referralCode: `CR${n}` }, new Date(0)));
    return id;
  };
}

projectRepositoryContract('postgres', async () => {
  const db = await createTestDatabase();
  const tx = new PgUnitOfWork(db.dataSource);
  return { projects: new PgProjectRepository(tx), newCreator: creators(tx), close: () => db.drop() };
});

describe('PgProjectRepository on PostgreSQL', () => {
  let db: TestDatabase;
  let projects: PgProjectRepository;
  let newCreator: () => Promise<string>;

  beforeAll(async () => {
    db = await createTestDatabase();
    const tx = new PgUnitOfWork(db.dataSource);
    projects = new PgProjectRepository(tx);
    newCreator = creators(tx);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('refuses a slug another project holds (the unique index is the final guarantee)', async () => {
    const creator = await newCreator();
    const a = newProject({ id: 'p-a', creatorId: creator, name: 'Shop' }, new Date(0));
    await projects.insert(a);
    await expect(projects.insert({ ...newProject({ id: 'p-b', creatorId: creator, name: 'Shop' }, new Date(0)), slug: a.slug })).rejects.toThrow(
      `Project slug ${a.slug} is already taken`,
    );
  });

  it('refuses a project whose creator has no profile', async () => {
    await expect(projects.insert(newProject({ id: 'orphan', creatorId: 'nobody', name: 'Orphan' }, new Date(0)))).rejects.toThrow(
      'projects_creator_id_fkey',
    );
  });

  it('counts with the (creator_id, status) index', async () => {
    const rows: { indexdef: string }[] = await db.dataSource.query(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'projects' ORDER BY indexname`,
      [db.schema],
    );
    expect(rows.map((r) => r.indexdef.replace(/ ON \S+\./, ' ON '))).toEqual([
      'CREATE INDEX projects_creator_status_idx ON projects USING btree (creator_id, status)',
      'CREATE UNIQUE INDEX projects_pkey ON projects USING btree (id)',
      'CREATE UNIQUE INDEX projects_slug_key ON projects USING btree (slug)',
    ]);
  });
});
