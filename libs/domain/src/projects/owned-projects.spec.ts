import { describe, expect, it } from '@jest/globals';
import { PlanCatalog } from '../plans/plan-catalog.js';
import { CheckPublishAllowed } from '../publishing/check-publish-allowed.use-case.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { OwnedProjects } from './owned-projects.js';

async function setUp() {
  const kit = createTestKit({ plans: PlanCatalog.standard() });
  await signUp(kit, 'ana');
  await signUp(kit, 'bob');
  const owned = new OwnedProjects(kit.projects, new CheckPublishAllowed(kit.profiles, kit.projects, kit.plans), kit.clock);
  const created = await kit.createProject.execute({ creatorId: 'ana', name: 'Shop' });
  if (!created.ok) throw new Error('setup');
  return { kit, owned, project: created.value };
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

  it('renames, and refuses a domain the plan does not include', async () => {
    const { kit, owned, project } = await setUp();
    kit.clock.advance(DAY_MS);
    const renamed = await owned.update('ana', project.id, { name: 'Store' });
    expect(renamed.ok && renamed.value).toMatchObject({ name: 'Store', updatedAt: kit.clock.now() });
    const published = await owned.update('ana', project.id, { domain: 'shop.example.com' });
    expect(!published.ok && published.error.code).toBe('PUBLISHING.NOT_INCLUDED');
    expect((await kit.projects.findById(project.id))?.domain).toBeNull();
  });

  it('publishes on pro, and a deleted project disappears from the list and the counts', async () => {
    const { kit, owned, project } = await setUp();
    await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly' });
    expect((await owned.update('ana', project.id, { domain: 'shop.example.com' })).ok).toBe(true);
    expect(await kit.projects.countPublishedByCreator('ana')).toBe(1);
    expect((await owned.delete('ana', project.id)).ok).toBe(true);
    expect(await owned.list('ana')).toEqual([]);
    expect(await kit.projects.countPublishedByCreator('ana')).toBe(0);
    expect((await owned.delete('ana', project.id)).ok).toBe(false);
  });
});
