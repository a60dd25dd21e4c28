import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { addMonthsClamped } from '../credits/allowance-cycle.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { type TestKit, createTestKit, signUp } from '../testing/test-kit.js';
import { slugFor } from './project.entity.js';

const URL_SAFE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

async function proUser(kit: TestKit, userId: string) {
  await signUp(kit, userId);
  kit.clock.advance(DAY_MS);
  const start = kit.clock.now();
  const r = await kit.changePlan.execute({ userId, planId: 'pro_monthly', period: { start, end: addMonthsClamped(start, 1) } });
  expect(r.ok).toBe(true);
}

async function createMany(kit: TestKit, creatorId: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i += 1) results.push(await kit.createProject.execute({ creatorId, name: `App ${i}` }));
  return results;
}

describe('CreateProject — the free plan allows 3 active private projects', () => {
  it('creates 3, then the 4th is PROJECTS.LIMIT_REACHED with limit type "project"', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');

    const results = await createMany(kit, 'ana', 4);

    expect(results.slice(0, 3).map((r) => r.ok)).toEqual([true, true, true]);
    const fourth = results[3];
    expect(fourth?.ok).toBe(false);
    if (fourth && !fourth.ok) {
      expect(fourth.error.code).toBe('PROJECTS.LIMIT_REACHED');
      if (fourth.error.code === 'PROJECTS.LIMIT_REACHED') {
        expect(fourth.error.limitType).toBe('project');
        expect(fourth.error.limit).toBe(3);
        expect(fourth.error.message).toBe('Your Free plan includes 3 private projects. Please upgrade to create more.');
      }
    }
    expect(await kit.projects.listByCreator('ana')).toHaveLength(3);
    expect(await kit.projects.countActiveByCreator('ana')).toBe(3);
  });

  it.each(['deleted', 'archived'] as const)('a %s project no longer counts: a new one may be created', async (status) => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const [first] = await createMany(kit, 'ana', 3);
    if (!first?.ok) throw new Error('set-up failed');
    await kit.projects.update({ ...first.value, status });

    const r = await kit.createProject.execute({ creatorId: 'ana', name: 'Another' });

    expect(r.ok).toBe(true);
    expect(await kit.projects.countActiveByCreator('ana')).toBe(3);
    expect((await kit.createProject.execute({ creatorId: 'ana', name: 'One too many' })).ok).toBe(false);
  });

  it("counts only the creator's own projects", async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await signUp(kit, 'bob');
    expect((await createMany(kit, 'ana', 3)).every((r) => r.ok)).toBe(true);
    expect((await createMany(kit, 'bob', 3)).every((r) => r.ok)).toBe(true);
  });

  it('an unknown stored plan resolves to free: 3 projects', async () => {
    const kit = createTestKit();
    const ana = await signUp(kit, 'ana');
    await kit.profiles.update({ ...ana.profile, subscriptionPlan: 'legacy_gold' });
    const results = await createMany(kit, 'ana', 4);
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
  });
});

describe('CreateProject — pro is unlimited', () => {
  it('creates 25 projects on pro_monthly', async () => {
    const kit = createTestKit();
    await proUser(kit, 'ana');
    const results = await createMany(kit, 'ana', 25);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await kit.projects.countActiveByCreator('ana')).toBe(25);
  });

  it('after a downgrade to free, the existing projects stay but no new one can be created above 3', async () => {
    const kit = createTestKit();
    await proUser(kit, 'ana');
    expect((await createMany(kit, 'ana', 5)).every((r) => r.ok)).toBe(true);
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);

    const r = await kit.createProject.execute({ creatorId: 'ana', name: 'Sixth' });

    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('PROJECTS.LIMIT_REACHED');
    expect(await kit.projects.listByCreator('ana')).toHaveLength(5);
  });
});

describe('CreateProject — the new project', () => {
  it('is active, unpublished, owned by the creator, stamped with the clock', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const r = await kit.createProject.execute({ creatorId: 'ana', name: '  My Shop  ' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ creatorId: 'ana', name: 'My Shop', status: 'active', domain: null, createdAt: kit.clock.now(), updatedAt: kit.clock.now() });
    expect(await kit.projects.findById(r.value.id)).toEqual(r.value);
  });

  it('a blank name becomes "Untitled project"', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const r = await kit.createProject.execute({ creatorId: 'ana', name: '   ' });
    expect(r.ok && r.value.name).toBe('Untitled project');
    expect(r.ok && r.value.slug).toMatch(/^untitled-project-/);
  });

  it('an unknown creator is PROFILES.NOT_FOUND and nothing is stored', async () => {
    const kit = createTestKit();
    const r = await kit.createProject.execute({ creatorId: 'ghost', name: 'App' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('PROFILES.NOT_FOUND');
    expect(await kit.projects.listByCreator('ghost')).toHaveLength(0);
  });
});

describe('project slugs are URL-safe', () => {
  it('for any name, through the use case', async () => {
    const kit = createTestKit();
    await proUser(kit, 'ana');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 80 }), async (name) => {
        const r = await kit.createProject.execute({ creatorId: 'ana', name });
        expect(r.ok).toBe(true);
        if (r.ok) {
          expect(r.value.slug).toMatch(URL_SAFE_SLUG);
          expect(encodeURIComponent(r.value.slug)).toBe(r.value.slug);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('for any name and any id, slugFor is URL-safe, at most 57 characters long', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), fc.oneof(fc.uuid(), fc.string({ unit: 'binary' })), (name, id) => {
        const slug = slugFor(name, id);
        expect(slug).toMatch(URL_SAFE_SLUG);
        expect(slug.length).toBeLessThanOrEqual(48 + 1 + 8);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the words of the name', () => {
    expect(slugFor('My Shop!', 'ab12cd34-0000')).toBe('my-shop-ab12cd340000');
    expect(slugFor('Café Déjà Vu', 'x1')).toBe('cafe-deja-vu-x1');
    expect(slugFor('???', 'id-7')).toBe('project-id7');
    expect(slugFor('--Hello--World--', '')).toBe('hello-world');
  });

  it('differ for two projects with different UUIDs and the same name', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), (a, b) => {
        fc.pre(a.replace(/-/g, '').slice(0, 12) !== b.replace(/-/g, '').slice(0, 12));
        expect(slugFor('Same', a)).not.toBe(slugFor('Same', b));
      }),
    );
  });

  /** The suffix keeps up to 12 letters and digits of the id, so `project-1` and `project-10` differ. */
  it('differ for every project of a user, even with the same name', async () => {
    const kit = createTestKit();
    await proUser(kit, 'ana');
    const slugs = [];
    for (let i = 0; i < 12; i += 1) {
      const r = await kit.createProject.execute({ creatorId: 'ana', name: 'Same name' });
      if (r.ok) slugs.push(r.value.slug);
    }
    expect(slugs).toHaveLength(12);
    expect(new Set(slugs).size).toBe(12);
  });
});
