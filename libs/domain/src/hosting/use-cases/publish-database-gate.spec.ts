import { describe, expect, it } from '@jest/globals';
import { createHostingKit } from '../../testing/hosting-kit.js';
import { signUp } from '../../testing/test-kit.js';

/** Ana on Pro with one project (sandbox made) and, when asked, a ready database with `tables`. */
async function setUp(tables: Array<{ name: string; rls: boolean }> | null) {
  const k = createHostingKit();
  k.clock.set(new Date('2026-03-01T10:00:00Z'));
  await signUp(k, 'ana');
  expect((await k.changePlan.execute({ userId: 'ana', planId: 'pro_monthly' })).ok).toBe(true);
  const created = await k.createProject.execute({ creatorId: 'ana', name: 'Todos' });
  if (!created.ok) throw new Error(created.error.message);
  const projectId = created.value.id;
  await k.sandboxes.ensure(projectId);
  if (tables) {
    const ref = 'abcdefghij0123456789';
    const connection = await k.databaseProvisioner.provision(ref, { sizeMb: 100, connections: 3, statementTimeoutMs: 5_000 });
    const now = k.clock.now();
    await k.databases.insert({ id: 'db-1', projectId, ownerId: 'ana', ref, provider: 'local', status: 'ready', connection, jwtSecret: 's'.repeat(64), createdAt: now, updatedAt: now });
    for (const t of tables) k.databaseProvisioner.addTable(ref, t.name, [], t.rls);
  }
  return { k, projectId };
}

describe('PublishProject: the database gate (CVE-2025-48757)', () => {
  it('refuses while a table has row-level security off, naming it, and changes nothing', async () => {
    const { k, projectId } = await setUp([
      { name: 'profiles', rls: true },
      { name: 'todos', rls: false },
    ]);
    const r = await k.publish.execute({ userId: 'ana', projectId });
    expect(r).toEqual({ ok: false, error: expect.objectContaining({ code: 'HOSTING.DATABASE_UNSAFE', tables: ['todos'] }) });
    expect(!r.ok && r.error.message).toMatch(/^The table todos has row-level security turned off/);
    expect(await k.hosting.findSite(projectId)).toBeNull();
    expect(await k.hosting.listReleases(projectId)).toEqual([]);
    expect((await k.projects.findById(projectId))?.domain ?? null).toBeNull();
  });

  it('names every open table', async () => {
    const { k, projectId } = await setUp([
      { name: 'notes', rls: false },
      { name: 'todos', rls: false },
    ]);
    const r = await k.publish.execute({ userId: 'ana', projectId });
    expect(!r.ok && r.error.message).toMatch(/^The tables notes, todos have row-level security turned off/);
  });

  it('publishes once every table has RLS on, and a project without a database publishes', async () => {
    const safe = await setUp([{ name: 'todos', rls: true }]);
    expect((await safe.k.publish.execute({ userId: 'ana', projectId: safe.projectId })).ok).toBe(true);
    const none = await setUp(null);
    expect((await none.k.publish.execute({ userId: 'ana', projectId: none.projectId })).ok).toBe(true);
  });

  it('answers 503 HOSTING.DATABASE_CHECK_UNAVAILABLE when the database cannot be inspected, and publishes nothing', async () => {
    const { k, projectId } = await setUp([{ name: 'todos', rls: true }]);
    k.databaseProvisioner.down = true;
    const r = await k.publish.execute({ userId: 'ana', projectId });
    expect(r).toEqual({ ok: false, error: expect.objectContaining({ code: 'HOSTING.DATABASE_CHECK_UNAVAILABLE' }) });
    expect(await k.hosting.findSite(projectId)).toBeNull();
  });
});
