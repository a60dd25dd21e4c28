import { describe, expect, it } from '@jest/globals';
import { PlanCatalog } from '../plans/plan-catalog.js';
import { type Result, err, ok } from '../shared/result.js';
import type { DomainError } from '../shared/domain-error.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { DeleteProject } from './delete-project.use-case.js';
import { ListProjects } from './list-projects.use-case.js';
import { OwnedProjects } from './owned-projects.js';
import { RenameProject } from './rename-project.use-case.js';
import type { ProjectRepository } from './project-repository.port.js';

async function setUp() {
  const kit = createTestKit({ plans: PlanCatalog.standard() });
  await signUp(kit, 'ana');
  await signUp(kit, 'bob');
  const owned = new OwnedProjects(kit.projects, kit.clock);
  const rename = new RenameProject(owned, kit.projects, kit.clock);
  const takenDown: string[] = [];
  const dropped: string[] = [];
  // The databases room's DropProjectDatabase in words: `down` is its provider unreachable.
  const databases = {
    down: false,
    dropFor: async (id: string): Promise<Result<void, DomainError>> => {
      if (databases.down) return err({ code: 'DATABASES.SERVER_UNAVAILABLE', message: 'down' });
      dropped.push(id);
      return ok(undefined);
    },
  };
  const remove = new DeleteProject(owned, kit.projects, kit.clock, { takeDown: async (id) => void takenDown.push(id) }, databases);
  const list = new ListProjects(kit.projects);
  const created = await kit.createProject.execute({ creatorId: 'ana', name: 'Shop' });
  if (!created.ok) throw new Error('setup');
  return { kit, owned, rename, remove, list, takenDown, dropped, databases, project: created.value };
}

describe('OwnedProjects', () => {
  it("answers another user's project like a missing one", async () => {
    const { owned, project } = await setUp();
    expect(await owned.find('bob', project.id)).toEqual({
      ok: false,
      error: { code: 'PROJECTS.NOT_FOUND', message: `Record with id ${project.id} not found` },
    });
    expect((await owned.find('ana', project.id)).ok).toBe(true);
  });

  it('renames, and the plan does not include publishing it', async () => {
    const { kit, rename, project } = await setUp();
    kit.clock.advance(DAY_MS);
    const renamed = await rename.execute('ana', project.id, 'Store');
    expect(renamed.ok && renamed.value).toMatchObject({ name: 'Store', updatedAt: kit.clock.now() });
    const allowed = await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: project.id });
    expect(!allowed.ok && allowed.error.code).toBe('PUBLISHING.NOT_INCLUDED');
    expect((await kit.projects.findById(project.id))?.domain).toBeNull();
  });

  it('publishes on pro, and a deleted project disappears from the list and the counts', async () => {
    const { kit, remove, list, takenDown, dropped, project } = await setUp();
    await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly' });
    expect(await kit.projects.updateWithinPublishLimit({ ...project, domain: 'shop.apps.kiln.test' }, null)).toBe(true);
    expect(await kit.projects.countPublishedByCreator('ana')).toBe(1);
    expect((await remove.execute('ana', project.id)).ok).toBe(true);
    expect(takenDown).toEqual([project.id]);
    expect(dropped).toEqual([project.id]);
    expect(await list.execute('ana')).toEqual([]);
    expect(await kit.projects.countPublishedByCreator('ana')).toBe(0);
    expect((await remove.execute('ana', project.id)).ok).toBe(false);
  });

  it('keeps the project when its database cannot be dropped, so the delete can be retried', async () => {
    const { remove, list, databases, dropped, project } = await setUp();
    databases.down = true;
    expect(await remove.execute('ana', project.id)).toEqual({ ok: false, error: { code: 'DATABASES.SERVER_UNAVAILABLE', message: 'down' } });
    expect((await list.execute('ana')).map((p) => p.id)).toEqual([project.id]);
    databases.down = false;
    expect((await remove.execute('ana', project.id)).ok).toBe(true);
    expect(dropped).toEqual([project.id]);
  });

  it('touch moves only the edited time, and never brings back a project deleted after its read', async () => {
    const { kit, project } = await setUp();
    const repo = kit.projects;
    // A delete that lands between touch's read and its write (the race a whole-row rewrite lost).
    const racing: ProjectRepository = {
      findById: async (id) => {
        const read = await repo.findById(id);
        if (read !== null) await repo.update({ ...read, status: 'deleted' });
        return read;
      },
      listByCreator: (id) => repo.listByCreator(id),
      insert: (p) => repo.insert(p),
      insertWithinLimit: (p, limit) => repo.insertWithinLimit(p, limit),
      updateWithinPublishLimit: (p, limit) => repo.updateWithinPublishLimit(p, limit),
      update: (p) => repo.update(p),
      touch: (id, at) => repo.touch(id, at),
      rename: (id, name, at) => repo.rename(id, name, at),
      markDeleted: (id, at) => repo.markDeleted(id, at),
      countActiveByCreator: (id) => repo.countActiveByCreator(id),
      countPublishedByCreator: (id) => repo.countPublishedByCreator(id),
    };
    kit.clock.advance(DAY_MS);
    await new OwnedProjects(racing, kit.clock).touch('ana', project.id);
    expect(await repo.findById(project.id)).toMatchObject({ status: 'deleted', updatedAt: project.updatedAt });

    const other = await kit.createProject.execute({ creatorId: 'ana', name: 'Blog' });
    if (!other.ok) throw new Error('setup');
    kit.clock.advance(DAY_MS);
    await new OwnedProjects(repo, kit.clock).touch('ana', other.value.id);
    expect(await repo.findById(other.value.id)).toEqual({ ...other.value, updatedAt: kit.clock.now() });
  });

  it('rename and delete never bring back or rename a project deleted after their read', async () => {
    const { kit, project } = await setUp();
    const repo = kit.projects;
    // A delete that lands between the use case's read and its write.
    const racing: ProjectRepository = Object.assign(Object.create(repo) as ProjectRepository, {
      findById: async (id: string) => {
        const read = await repo.findById(id);
        if (read !== null) await repo.markDeleted(id, kit.clock.now());
        return read;
      },
    });
    kit.clock.advance(DAY_MS);
    const owned = new OwnedProjects(racing, kit.clock);
    expect(await new RenameProject(owned, racing, kit.clock).execute('ana', project.id, 'Zombie')).toEqual({
      ok: false,
      error: { code: 'PROJECTS.NOT_FOUND', message: `Record with id ${project.id} not found` },
    });
    expect(await repo.findById(project.id)).toMatchObject({ name: 'Shop', status: 'deleted' });
    expect((await new DeleteProject(owned, racing, kit.clock, { takeDown: async () => undefined }, { dropFor: async () => ok(undefined) }).execute('ana', project.id)).ok).toBe(false);
  });

  it('lists the caller’s live projects newest first, and nobody else’s', async () => {
    const { kit, list, remove, project } = await setUp();
    kit.clock.advance(DAY_MS);
    const second = await kit.createProject.execute({ creatorId: 'ana', name: 'Blog' });
    const bobs = await kit.createProject.execute({ creatorId: 'bob', name: 'Bob’s' });
    if (!second.ok || !bobs.ok) throw new Error('setup');
    expect((await list.execute('ana')).map((p) => p.name)).toEqual(['Blog', 'Shop']);
    expect((await remove.execute('bob', project.id)).ok).toBe(false);
    expect((await list.execute('ana')).map((p) => p.name)).toEqual(['Blog', 'Shop']);
  });
});
