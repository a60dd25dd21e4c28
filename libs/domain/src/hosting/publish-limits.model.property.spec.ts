import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PlanCatalog } from '../plans/plan-catalog.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { type TestKit, createTestKit, signUp } from '../testing/test-kit.js';

/**
 * Publish limits as a command model (STYLE.md "Tests"): the real system is the test kit with a
 * catalog that includes two upper tiers; the model is the plan, which projects have a domain
 * and which are deleted. Every step compares the real decision (allowed or not, and the error
 * code) with the model's, and time passing must never change it.
 */

type PlanId = 'free' | 'basic' | 'starter' | 'pro_monthly';
const PLANS: readonly PlanId[] = ['free', 'basic', 'starter', 'pro_monthly'];
/** Published-project limit of each plan; null = unlimited. */
const LIMIT: Readonly<Record<PlanId, number | null>> = { free: 0, basic: 1, starter: 2, pro_monthly: null };
const PROJECTS = 4;
const USER = 'ana';

interface Model {
  plan: PlanId;
  published: boolean[];
  deleted: boolean[];
}

interface Real {
  kit: TestKit;
  projectIds: string[];
  domains: number;
}

const isPublished = (m: Model, i: number): boolean => !m.deleted[i] && m.published[i] === true;
const publishedCount = (m: Model): number => m.published.filter((_, i) => isPublished(m, i)).length;

/** What the model says a publish check gives: ok with the limit, or the error code. */
function expected(m: Model, projectIdx: number | null): { ok: true; limit: number | 'unlimited' } | { ok: false; code: string } {
  const limit = LIMIT[m.plan];
  if (limit === null) return { ok: true, limit: 'unlimited' };
  if (projectIdx !== null && isPublished(m, projectIdx)) return { ok: true, limit };
  if (limit === 0) return { ok: false, code: 'PUBLISHING.NOT_INCLUDED' };
  if (publishedCount(m) >= limit) return { ok: false, code: 'PUBLISHING.LIMIT_REACHED' };
  return { ok: true, limit };
}

async function checkAgainstModel(m: Model, r: Real, projectIdx: number | null) {
  const actual = await r.kit.checkPublishAllowed.execute(projectIdx === null ? { userId: USER } : { userId: USER, projectId: r.projectIds[projectIdx] });
  const want = expected(m, projectIdx);
  expect(actual.ok ? { ok: true, limit: actual.value.limit } : { ok: false, code: actual.error.code }).toEqual(want);
  return want.ok;
}

async function project(r: Real, i: number) {
  const p = await r.kit.projects.findById(r.projectIds[i]!);
  if (!p) throw new Error(`project ${i} is missing`);
  return p;
}

/** After every command the real published count and plan match the model. */
async function checkState(m: Model, r: Real) {
  expect(await r.kit.projects.countPublishedByCreator(USER)).toBe(publishedCount(m));
  expect((await r.kit.profiles.findById(USER))?.subscriptionPlan).toBe(m.plan);
}

class Publish implements fc.AsyncCommand<Model, Real> {
  constructor(readonly idx: number) {}
  check = (m: Readonly<Model>) => !m.deleted[this.idx];
  async run(m: Model, r: Real) {
    const allowed = await checkAgainstModel(m, r, this.idx);
    if (allowed) {
      r.domains += 1;
      await r.kit.projects.update({ ...(await project(r, this.idx)), domain: `site${r.domains}.example.com`, updatedAt: r.kit.clock.now() });
      m.published[this.idx] = true;
    }
    await checkState(m, r);
  }
  toString = () => `Publish(${this.idx})`;
}

class Unpublish implements fc.AsyncCommand<Model, Real> {
  constructor(readonly idx: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await r.kit.projects.update({ ...(await project(r, this.idx)), domain: null, updatedAt: r.kit.clock.now() });
    m.published[this.idx] = false;
    await checkState(m, r);
  }
  toString = () => `Unpublish(${this.idx})`;
}

class DeleteProject implements fc.AsyncCommand<Model, Real> {
  constructor(readonly idx: number) {}
  check = (m: Readonly<Model>) => !m.deleted[this.idx];
  async run(m: Model, r: Real) {
    // The domain stays on the row: a deleted project with a domain must no longer count.
    await r.kit.projects.update({ ...(await project(r, this.idx)), status: 'deleted', updatedAt: r.kit.clock.now() });
    m.deleted[this.idx] = true;
    await checkState(m, r);
  }
  toString = () => `DeleteProject(${this.idx})`;
}

class ChangePlan implements fc.AsyncCommand<Model, Real> {
  constructor(readonly planId: PlanId) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const result = await r.kit.changePlan.execute({ userId: USER, planId: this.planId });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.planChanged).toBe(m.plan !== this.planId);
    m.plan = this.planId;
    await checkState(m, r);
    await checkAgainstModel(m, r, null);
  }
  toString = () => `ChangePlan(${this.planId})`;
}

class AdvanceClock implements fc.AsyncCommand<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const before = await r.kit.checkPublishAllowed.execute({ userId: USER });
    r.kit.clock.advance(this.days * DAY_MS);
    // Rolling the allowance cycle forward must not touch publishing either.
    expect((await r.kit.grantMonthlyAllowance.execute({ userId: USER })).ok).toBe(true);
    expect(await r.kit.checkPublishAllowed.execute({ userId: USER })).toEqual(before);
    await checkAgainstModel(m, r, null);
    await checkState(m, r);
  }
  toString = () => `AdvanceClock(${this.days}d)`;
}

class Check implements fc.AsyncCommand<Model, Real> {
  constructor(readonly idx: number | null) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await checkAgainstModel(m, r, this.idx);
  }
  toString = () => `Check(${this.idx ?? '-'})`;
}

const idx = fc.integer({ min: 0, max: PROJECTS - 1 });
const commands = fc.commands(
  [
    idx.map((i) => new Publish(i)),
    idx.map((i) => new Unpublish(i)),
    idx.map((i) => new DeleteProject(i)),
    fc.constantFrom(...PLANS).map((p) => new ChangePlan(p)),
    fc.integer({ min: 0, max: 400 }).map((d) => new AdvanceClock(d)),
    fc.option(idx, { nil: null }).map((i) => new Check(i)),
  ],
  { maxCommands: 40 },
);

function catalog(): PlanCatalog {
  const base = { interval: 'monthly', priceUsdMinor: 900, priceInrMinor: 79900, promptsPerMonth: 10, privateProjects: 10 } as const;
  const r = PlanCatalog.create([
    { ...base, id: 'basic', name: 'Basic', publishedProjects: 1 },
    { ...base, id: 'starter', name: 'Starter', publishedProjects: 2 },
  ]);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** One user with PROJECTS projects, none published, on `plan`. */
async function setUp(plan: PlanId): Promise<{ model: Model; real: Real }> {
  const kit = createTestKit({ plans: catalog() });
  kit.clock.set(new Date('2026-01-15T10:00:00Z'));
  await signUp(kit, USER);
  kit.clock.advance(DAY_MS);
  if (!(await kit.changePlan.execute({ userId: USER, planId: 'pro_monthly' })).ok) throw new Error('set-up: upgrade failed');
  const projectIds: string[] = [];
  for (let i = 0; i < PROJECTS; i += 1) {
    const p = await kit.createProject.execute({ creatorId: USER, name: `Site ${i}` });
    if (!p.ok) throw new Error(`set-up: ${p.error.message}`);
    projectIds.push(p.value.id);
  }
  kit.clock.advance(DAY_MS);
  if (!(await kit.changePlan.execute({ userId: USER, planId: plan })).ok) throw new Error('set-up: plan change failed');
  return {
    model: { plan, published: Array<boolean>(PROJECTS).fill(false), deleted: Array<boolean>(PROJECTS).fill(false) },
    real: { kit, projectIds, domains: 0 },
  };
}

describe('publish limits — command model', () => {
  it('every publish decision (allowed or denied, and the error code) matches the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLANS), commands, async (plan, cmds) => {
        const { model, real } = await setUp(plan);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 300 },
    );
  });

  it('the model reaches every outcome (so the property above is not vacuous)', async () => {
    // A fixed walk through the interesting states, run through the same commands.
    const { model, real } = await setUp('starter');
    const walk = [
      new Publish(0),
      new Publish(1),
      new Publish(2), // denied: limit 2 reached
      new Publish(0), // allowed: already published
      new DeleteProject(0), // frees a slot although its domain stays
      new Publish(2),
      new ChangePlan('basic'), // 2 published on a 1-project plan
      new Publish(3), // denied: limit reached
      new Publish(1), // allowed: already published
      new ChangePlan('free'),
      new Publish(3), // denied: not included
      new Publish(2), // allowed: already published
      new AdvanceClock(45),
      new ChangePlan('pro_monthly'),
      new Publish(3), // unlimited
    ];
    const outcomes: string[] = [];
    for (const c of walk) {
      if (c instanceof Publish) {
        const want = expected(model, c.idx);
        outcomes.push(want.ok ? `ok:${want.limit}` : want.code);
      }
      await c.run(model, real);
    }
    expect(outcomes).toEqual([
      'ok:2',
      'ok:2',
      'PUBLISHING.LIMIT_REACHED',
      'ok:2',
      'ok:2',
      'PUBLISHING.LIMIT_REACHED',
      'ok:1',
      'PUBLISHING.NOT_INCLUDED',
      'ok:0',
      'ok:unlimited',
    ]);
    expect(await real.kit.projects.countPublishedByCreator(USER)).toBe(3);
  });
});
