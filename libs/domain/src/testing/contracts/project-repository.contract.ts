import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type Project, type ProjectStatus, isPublished, newProject } from '../../projects/project.entity.js';
import type { ProjectRepository } from '../../projects/project-repository.port.js';

export interface ProjectRepositoryHarness {
  readonly projects: ProjectRepository;
  /** A fresh creator id no other test uses (adapters may need the creator's profile to exist). */
  newCreator(): Promise<string>;
  close?(): Promise<void>;
}

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 10, 0, 0, 0) + minutes * 60_000 + 42);
const byId = (a: Project, b: Project) => a.id.localeCompare(b.id);

/**
 * The ProjectRepository contract: projects round-trip, `update` needs an existing project, and
 * the counts the plan limits depend on (SPEC §5/§7) count exactly the active projects, and the
 * active ones with a domain, of one creator — never deleted or archived ones, never others'.
 */
export function projectRepositoryContract(name: string, makeHarness: () => Promise<ProjectRepositoryHarness>): void {
  describe(`ProjectRepository contract: ${name}`, () => {
    let h: ProjectRepositoryHarness;
    let n = 0;
    const project = (creatorId: string, fields: Partial<Pick<Project, 'status' | 'domain' | 'name'>> = {}): Project => {
      n += 1;
      const p = newProject({ id: `project-${n}`, creatorId, name: fields.name ?? `App ${n}` }, at(n));
      return { ...p, status: fields.status ?? p.status, domain: fields.domain === undefined ? p.domain : fields.domain };
    };
    const insert = async (p: Project) => {
      await h.projects.insert(p);
      return p;
    };

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('inserts within a limit atomically: 20 concurrent creations under a limit of 3 make exactly 3', async () => {
      const creator = await h.newCreator();
      const attempts = Array.from({ length: 20 }, () => project(creator));
      const results = await Promise.all(attempts.map((p) => h.projects.insertWithinLimit(p, 3)));
      expect(results.filter(Boolean)).toHaveLength(3);
      expect(await h.projects.countActiveByCreator(creator)).toBe(3);
      // Deleted projects do not count; no limit means no limit.
      const [first] = await h.projects.listByCreator(creator);
      await h.projects.update({ ...(first as Project), status: 'deleted' });
      expect(await h.projects.insertWithinLimit(project(creator), 3)).toBe(true);
      expect(await h.projects.insertWithinLimit(project(creator), 3)).toBe(false);
      expect(await h.projects.insertWithinLimit(project(creator), null)).toBe(true);
    });

    it('publishes within a limit atomically: 10 concurrent publishes under a limit of 2 make 2', async () => {
      const creator = await h.newCreator();
      const drafts = await Promise.all(Array.from({ length: 10 }, () => insert(project(creator))));
      const results = await Promise.all(drafts.map((p, i) => h.projects.updateWithinPublishLimit({ ...p, domain: `app${i}.example.com` }, 2)));
      expect(results.filter(Boolean)).toHaveLength(2);
      expect(await h.projects.countPublishedByCreator(creator)).toBe(2);
      // A published project may change its domain at the limit: it does not count against itself.
      const published = (await h.projects.listByCreator(creator)).find((p) => p.domain !== null) as Project;
      expect(await h.projects.updateWithinPublishLimit({ ...published, domain: 'moved.example.com' }, 2)).toBe(true);
      expect(await h.projects.updateWithinPublishLimit({ ...published, domain: 'again.example.com' }, null)).toBe(true);
    });

    it('stores a project and reads it back exactly', async () => {
      const creator = await h.newCreator();
      const p = await insert(project(creator, { name: 'Déjà Vu — café' }));
      const published = await insert(project(creator, { domain: 'shop.example.com' }));
      expect(await h.projects.findById(p.id)).toEqual(p);
      expect(await h.projects.findById(published.id)).toEqual(published);
      expect((await h.projects.findById(p.id))?.createdAt.getTime()).toBe(p.createdAt.getTime());
    });

    it('returns null for an unknown id and nothing for an unknown creator', async () => {
      expect(await h.projects.findById('no-such-project')).toBeNull();
      expect(await h.projects.listByCreator('no-such-creator')).toEqual([]);
      expect(await h.projects.countActiveByCreator('no-such-creator')).toBe(0);
      expect(await h.projects.countPublishedByCreator('no-such-creator')).toBe(0);
    });

    it('refuses a second project with the same id and keeps the first', async () => {
      const creator = await h.newCreator();
      const p = await insert(project(creator));
      await expect(h.projects.insert({ ...p, name: 'Other', slug: `${p.slug}-other` })).rejects.toThrow(`Project ${p.id} already exists`);
      expect(await h.projects.findById(p.id)).toEqual(p);
    });

    it('lists a creator’s projects without deleted ones or other creators’', async () => {
      const creator = await h.newCreator();
      const other = await h.newCreator();
      const active = await insert(project(creator));
      const archived = await insert(project(creator, { status: 'archived' }));
      await insert(project(creator, { status: 'deleted' }));
      await insert(project(other));
      expect([...(await h.projects.listByCreator(creator))].sort(byId)).toEqual([active, archived].sort(byId));
    });

    it('counts active and published projects of one creator only', async () => {
      const creator = await h.newCreator();
      const other = await h.newCreator();
      await insert(project(creator));
      await insert(project(creator, { domain: 'a.example.com' }));
      await insert(project(creator, { domain: 'b.example.com' }));
      await insert(project(creator, { status: 'archived', domain: 'c.example.com' }));
      await insert(project(creator, { status: 'deleted', domain: 'd.example.com' }));
      await insert(project(creator, { status: 'deleted' }));
      await insert(project(other, { domain: 'e.example.com' }));
      expect(await h.projects.countActiveByCreator(creator)).toBe(3);
      expect(await h.projects.countPublishedByCreator(creator)).toBe(2);
      expect(await h.projects.countActiveByCreator(other)).toBe(1);
      expect(await h.projects.countPublishedByCreator(other)).toBe(1);
    });

    it('replaces a project on update, and the counts follow', async () => {
      const creator = await h.newCreator();
      const p = await insert(project(creator));
      const published = { ...p, domain: 'app.example.com', name: 'Renamed', updatedAt: at(1000) };
      await h.projects.update(published);
      expect(await h.projects.findById(p.id)).toEqual(published);
      expect(await h.projects.countPublishedByCreator(creator)).toBe(1);

      const deleted = { ...published, status: 'deleted' as const, updatedAt: at(1001) };
      await h.projects.update(deleted);
      expect(await h.projects.findById(p.id)).toEqual(deleted);
      expect(await h.projects.countActiveByCreator(creator)).toBe(0);
      expect(await h.projects.countPublishedByCreator(creator)).toBe(0);
      expect(await h.projects.listByCreator(creator)).toEqual([]);
    });

    it('touches only updated_at, never a deleted project, and leaves a concurrent change in place', async () => {
      const creator = await h.newCreator();
      const p = await insert(project(creator));
      // A rename written after someone read the project: touching must not put the old name back.
      await h.projects.update({ ...p, name: 'Renamed meanwhile', updatedAt: at(2000) });
      expect(await h.projects.touch(p.id, at(2001))).toBe(true);
      expect(await h.projects.findById(p.id)).toEqual({ ...p, name: 'Renamed meanwhile', updatedAt: at(2001) });
      // A deleted project stays deleted (and untouched).
      const deleted = { ...p, name: 'Renamed meanwhile', status: 'deleted' as const, updatedAt: at(2002) };
      await h.projects.update(deleted);
      expect(await h.projects.touch(p.id, at(2003))).toBe(false);
      expect(await h.projects.findById(p.id)).toEqual(deleted);
      expect(await h.projects.touch('no-such-project', at(2004))).toBe(false);
    });

    it('renames and deletes with targeted writes: a concurrent change stays, a deleted project is never renamed or deleted again', async () => {
      const creator = await h.newCreator();
      const p = await insert(project(creator));
      // Touched after someone read the project: renaming keeps everything but the name and the time.
      expect(await h.projects.touch(p.id, at(3000))).toBe(true);
      expect(await h.projects.rename(p.id, 'Second name', at(3001))).toBe(true);
      expect(await h.projects.findById(p.id)).toEqual({ ...p, name: 'Second name', updatedAt: at(3001) });
      expect(await h.projects.countActiveByCreator(creator)).toBe(1);
      expect(await h.projects.markDeleted(p.id, at(3002))).toBe(true);
      const deleted = { ...p, name: 'Second name', status: 'deleted' as const, updatedAt: at(3002) };
      expect(await h.projects.findById(p.id)).toEqual(deleted);
      expect(await h.projects.countActiveByCreator(creator)).toBe(0);
      // A rename or a second delete landing after the delete changes nothing.
      expect(await h.projects.rename(p.id, 'Back from the dead', at(3003))).toBe(false);
      expect(await h.projects.markDeleted(p.id, at(3004))).toBe(false);
      expect(await h.projects.findById(p.id)).toEqual(deleted);
      expect(await h.projects.rename('no-such-project', 'x', at(3005))).toBe(false);
      expect(await h.projects.markDeleted('no-such-project', at(3006))).toBe(false);
    });

    it('fails to update a project that does not exist, with SPEC §5’s message', async () => {
      const creator = await h.newCreator();
      const ghost = project(creator);
      await expect(h.projects.update(ghost)).rejects.toThrow(`Record with id ${ghost.id} not found`);
      expect(await h.projects.findById(ghost.id)).toBeNull();
    });

    it('counts exactly like isPublished on random sets of projects', async () => {
      const status = fc.constantFrom<ProjectStatus>('active', 'archived', 'deleted');
      const spec = fc.record({ status, domain: fc.option(fc.constantFrom('x.example.com', 'y.example.com'), { nil: null }) });
      await fc.assert(
        fc.asyncProperty(fc.array(spec, { maxLength: 8 }), async (specs) => {
          const creator = await h.newCreator();
          const stored: Project[] = [];
          for (const s of specs) stored.push(await insert(project(creator, s)));
          expect(await h.projects.countActiveByCreator(creator)).toBe(stored.filter((p) => p.status === 'active').length);
          expect(await h.projects.countPublishedByCreator(creator)).toBe(stored.filter(isPublished).length);
          expect([...(await h.projects.listByCreator(creator))].sort(byId)).toEqual(stored.filter((p) => p.status !== 'deleted').sort(byId));
        }),
        { numRuns: 20 },
      );
    });
  });
}
