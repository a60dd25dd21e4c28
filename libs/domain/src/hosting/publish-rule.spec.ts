import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { addMonthsClamped } from '../credits/allowance-cycle.js';
import { PlanCatalog } from '../plans/plan-catalog.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import { UNLIMITED, limited } from '../shared/limit.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { type TestKit, createTestKit, signUp } from '../testing/test-kit.js';
import { CheckPublishAllowed } from './check-publish-allowed.use-case.js';
import { decidePublish } from './publish-rule.js';

const MESSAGES = {
  undetermined: 'Unable to determine subscription plan',
  freeNotIncluded: "Your Free plan doesn't include domain connections. Please upgrade to connect a custom domain.",
  limit2: "You've reached your limit of 2 published project(s). Please upgrade to connect more domains.",
  failed: 'Error checking subscription limits. Please try again.',
};

function catalogWithTiers(): PlanCatalog {
  const base = { interval: 'monthly', priceUsdMinor: 1000, priceInrMinor: 99900, promptsPerMonth: 10, privateProjects: 10 } as const;
  const r = PlanCatalog.create([
    { ...base, id: 'starter', name: 'Starter', publishedProjects: 2 },
    { ...base, id: 'basic', name: 'Basic', publishedProjects: 0 },
  ]);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

async function onPlan(kit: TestKit, userId: string, planId: string) {
  await signUp(kit, userId);
  kit.clock.advance(DAY_MS);
  const start = kit.clock.now();
  const r = await kit.changePlan.execute({ userId, planId, period: { start, end: addMonthsClamped(start, 1) } });
  expect(r.ok).toBe(true);
}

/** Creates `n` projects for the user and publishes the first `published` of them. */
async function projects(kit: TestKit, userId: string, n: number, published: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const r = await kit.createProject.execute({ creatorId: userId, name: `App ${i}` });
    if (!r.ok) throw new Error(r.error.message);
    ids.push(r.value.id);
    if (i < published) await kit.projects.update({ ...r.value, domain: `app${i}.example.com` });
  }
  return ids;
}

async function expectDenied(kit: TestKit, input: { userId: string; projectId?: string }, code: string, message: string) {
  const r = await kit.checkPublishAllowed.execute(input);
  expect(r.ok).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toBe(code);
    expect(r.error.message).toBe(message);
  }
  return r;
}

describe('CheckPublishAllowed — SPEC §8 messages', () => {
  it('no profile: "Unable to determine subscription plan"', async () => {
    const kit = createTestKit();
    await expectDenied(kit, { userId: 'ghost' }, 'PUBLISHING.PLAN_UNDETERMINED', MESSAGES.undetermined);
  });

  it('free: domain connections are not included', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await projects(kit, 'ana', 1, 0);
    const r = await expectDenied(kit, { userId: 'ana' }, 'PUBLISHING.NOT_INCLUDED', MESSAGES.freeNotIncluded);
    if (!r.ok && r.error.code === 'PUBLISHING.NOT_INCLUDED') {
      expect(r.error.limitType).toBe('published');
      expect(r.error.plan).toBe('Free');
    }
  });

  it('an upper tier with 2 published projects and 2 published: the limit is reached', async () => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'starter');
    const ids = await projects(kit, 'ana', 3, 2);
    const r = await expectDenied(kit, { userId: 'ana', projectId: ids[2] }, 'PUBLISHING.LIMIT_REACHED', MESSAGES.limit2);
    if (!r.ok && r.error.code === 'PUBLISHING.LIMIT_REACHED') {
      expect(r.error.limitType).toBe('published');
      expect(r.error.limit).toBe(2);
    }
    await expectDenied(kit, { userId: 'ana' }, 'PUBLISHING.LIMIT_REACHED', MESSAGES.limit2);
  });

  it('the same tier below its limit allows publishing and reports the limit', async () => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'starter');
    const ids = await projects(kit, 'ana', 3, 1);
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[2] })).toEqual({ ok: true, value: { limit: 2 } });
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana' })).toEqual({ ok: true, value: { limit: 2 } });
  });

  it('a configured tier with 0 published projects names the tier', async () => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'basic');
    await expectDenied(
      kit,
      { userId: 'ana' },
      'PUBLISHING.NOT_INCLUDED',
      "Your Basic plan doesn't include domain connections. Please upgrade to connect a custom domain.",
    );
  });

  it('an unknown stored plan id gives limit 0 (not the free fallback) and names the stored id', async () => {
    const kit = createTestKit();
    const ana = await signUp(kit, 'ana');
    await kit.profiles.update({ ...ana.profile, subscriptionPlan: 'legacy_gold' });
    const r = await expectDenied(
      kit,
      { userId: 'ana' },
      'PUBLISHING.NOT_INCLUDED',
      "Your legacy_gold plan doesn't include domain connections. Please upgrade to connect a custom domain.",
    );
    if (!r.ok && r.error.code === 'PUBLISHING.NOT_INCLUDED') expect(r.error.plan).toBe('legacy_gold');
  });

  it('an upper tier id that is not configured in this catalog is unknown too: limit 0', async () => {
    const kit = createTestKit(); // standard catalog: no starter
    const ana = await signUp(kit, 'ana');
    await kit.profiles.update({ ...ana.profile, subscriptionPlan: 'starter' });
    await expectDenied(
      kit,
      { userId: 'ana' },
      'PUBLISHING.NOT_INCLUDED',
      "Your starter plan doesn't include domain connections. Please upgrade to connect a custom domain.",
    );
  });

  it.each(['pro_monthly', 'pro_annual'])('%s is unlimited, however many projects are published', async (planId) => {
    const kit = createTestKit();
    await onPlan(kit, 'ana', planId);
    const ids = await projects(kit, 'ana', 30, 29);
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[29] })).toEqual({ ok: true, value: { limit: 'unlimited' } });
  });

  describe('a failing repository: "Error checking subscription limits. Please try again."', () => {
    const boom = () => Promise.reject(new Error('connection reset'));

    it('when the profile read fails', async () => {
      const kit = createTestKit();
      const profiles: ProfileRepository = {
        findById: boom,
        findByReferralCode: boom,
        markDeleted: boom,
        insertIfAbsent: boom,
        update: boom,
        recordReferrer: boom,
        countReferredBy: boom,
      };
      const r = await new CheckPublishAllowed(profiles, kit.projects, kit.plans).execute({ userId: 'ana' });
      expect(r).toEqual({ ok: false, error: { code: 'PUBLISHING.CHECK_FAILED', message: MESSAGES.failed } });
    });

    it.each(['findById', 'countPublishedByCreator'] as const)('when the project repository fails in %s', async (method) => {
      const kit = createTestKit();
      await onPlan(kit, 'ana', 'pro_monthly');
      const ids = await projects(kit, 'ana', 1, 0);
      const projectsRepo: ProjectRepository = {
        findById: (id) => kit.projects.findById(id),
        listByCreator: (id) => kit.projects.listByCreator(id),
        insert: (p) => kit.projects.insert(p),
        insertWithinLimit: (p, limit) => kit.projects.insertWithinLimit(p, limit),
        updateWithinPublishLimit: (p, limit) => kit.projects.updateWithinPublishLimit(p, limit),
        update: (p) => kit.projects.update(p),
        touch: (id, at) => kit.projects.touch(id, at),
        rename: (id, name, at) => kit.projects.rename(id, name, at),
        markDeleted: (id, at) => kit.projects.markDeleted(id, at),
        countActiveByCreator: (id) => kit.projects.countActiveByCreator(id),
        countPublishedByCreator: (id) => kit.projects.countPublishedByCreator(id),
        [method]: boom,
      };
      const r = await new CheckPublishAllowed(kit.profiles, projectsRepo, kit.plans).execute({ userId: 'ana', projectId: ids[0] });
      expect(r).toEqual({ ok: false, error: { code: 'PUBLISHING.CHECK_FAILED', message: MESSAGES.failed } });
    });
  });
});

describe('CheckPublishAllowed — what counts as published', () => {
  it('an already-published project may change its domain even at the limit', async () => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'starter');
    const ids = await projects(kit, 'ana', 3, 2);
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[0] })).toEqual({ ok: true, value: { limit: 2 } });
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[1] })).toEqual({ ok: true, value: { limit: 2 } });
    await expectDenied(kit, { userId: 'ana', projectId: ids[2] }, 'PUBLISHING.LIMIT_REACHED', MESSAGES.limit2);
  });

  it('an already-published project may change its domain after a downgrade to free', async () => {
    const kit = createTestKit();
    await onPlan(kit, 'ana', 'pro_monthly');
    const ids = await projects(kit, 'ana', 2, 1);
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);
    expect((await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[0] })).ok).toBe(true);
    await expectDenied(kit, { userId: 'ana', projectId: ids[1] }, 'PUBLISHING.NOT_INCLUDED', MESSAGES.freeNotIncluded);
  });

  it("another user's published project does not count as already published", async () => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'starter');
    await onPlan(kit, 'bob', 'starter');
    await projects(kit, 'ana', 2, 2);
    const bobs = await projects(kit, 'bob', 1, 1);
    await expectDenied(kit, { userId: 'ana', projectId: bobs[0] }, 'PUBLISHING.LIMIT_REACHED', MESSAGES.limit2);
    // ...and ana's projects do not count against bob.
    expect((await kit.checkPublishAllowed.execute({ userId: 'bob' })).ok).toBe(true);
  });

  it.each(['deleted', 'archived'] as const)('a %s project with a domain no longer counts', async (status) => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'starter');
    const ids = await projects(kit, 'ana', 3, 2);
    const first = await kit.projects.findById(ids[0]!);
    await kit.projects.update({ ...first!, status });
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[2] })).toEqual({ ok: true, value: { limit: 2 } });
    // Once the slot is taken again, the old project is judged like any unpublished one.
    const third = await kit.projects.findById(ids[2]!);
    await kit.projects.update({ ...third!, domain: 'app2.example.com' });
    await expectDenied(kit, { userId: 'ana', projectId: ids[0] }, 'PUBLISHING.LIMIT_REACHED', MESSAGES.limit2);
  });

  it('an unknown project id is judged by the count alone', async () => {
    const kit = createTestKit({ plans: catalogWithTiers() });
    await onPlan(kit, 'ana', 'starter');
    await projects(kit, 'ana', 2, 2);
    await expectDenied(kit, { userId: 'ana', projectId: 'no-such-project' }, 'PUBLISHING.LIMIT_REACHED', MESSAGES.limit2);
  });

  /** An unknown plan has limit 0 in every branch, also when a published project changes its domain. */
  it('an already-published project on an unknown plan reports limit 0, not unlimited', async () => {
    const kit = createTestKit();
    const ana = await signUp(kit, 'ana');
    const ids = await projects(kit, 'ana', 1, 1);
    await kit.profiles.update({ ...ana.profile, subscriptionPlan: 'legacy_gold' });
    expect(await kit.checkPublishAllowed.execute({ userId: 'ana', projectId: ids[0] })).toEqual({ ok: true, value: { limit: 0 } });
  });
});

describe('decidePublish — the pure rule (SPEC §5)', () => {
  const free = PlanCatalog.standard().resolve('free');
  const pro = PlanCatalog.standard().resolve('pro_monthly');
  const withPublished = (n: number | 'unlimited') => ({
    ...free,
    name: 'Tier',
    features: { ...free.features, publishedProjects: n === 'unlimited' ? UNLIMITED : limited(n) },
  });

  it('allows iff the limit is unlimited or the count is below a positive limit', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat({ max: 20 }), fc.constant('unlimited' as const)), fc.nat({ max: 40 }), (limit, count) => {
        const r = decidePublish(withPublished(limit), 'tier', count);
        if (limit === 'unlimited') expect(r).toEqual({ ok: true, value: { limit: 'unlimited' } });
        else if (limit === 0) expect(!r.ok && r.error.code).toBe('PUBLISHING.NOT_INCLUDED');
        else if (count < limit) expect(r).toEqual({ ok: true, value: { limit } });
        else expect(!r.ok && r.error.code).toBe('PUBLISHING.LIMIT_REACHED');
      }),
    );
  });

  it('an unknown plan is limit 0 whatever the count', () => {
    fc.assert(
      fc.property(fc.nat({ max: 40 }), fc.string({ minLength: 1 }), (count, id) => {
        const r = decidePublish(undefined, id, count);
        expect(r.ok).toBe(false);
        if (!r.ok && r.error.code === 'PUBLISHING.NOT_INCLUDED') expect(r.error.plan).toBe(id);
        else throw new Error('expected PUBLISHING.NOT_INCLUDED');
      }),
    );
  });

  it('free and pro', () => {
    expect(decidePublish(free, 'free', 0)).toEqual({
      ok: false,
      error: { code: 'PUBLISHING.NOT_INCLUDED', limitType: 'published', plan: 'Free', message: MESSAGES.freeNotIncluded },
    });
    expect(decidePublish(pro, 'pro_monthly', 1_000)).toEqual({ ok: true, value: { limit: 'unlimited' } });
  });
});
