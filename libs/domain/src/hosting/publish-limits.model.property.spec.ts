import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PlanCatalog } from '../plans/plan-catalog.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { type HostingKit, createHostingKit } from '../testing/hosting-kit.js';
import { signUp } from '../testing/test-kit.js';
import { MAX_DOMAINS_PER_PROJECT } from './use-cases/add-custom-domain.use-case.js';

/**
 * Publish limits as a command model (STYLE.md "Tests"): the real system is the hosting kit (the
 * hosting use cases over in-memory adapters) with a catalog that includes two upper tiers; the
 * model is the plan, which sites are live, which projects are deleted and how many custom
 * domains each has. Every publish, unpublish and domain add compares the real outcome (allowed
 * or not, and the error code) with the model's; after every step the published count, what the
 * hosts serve and the domains match it, and time passing never changes a decision.
 */

type PlanId = 'free' | 'basic' | 'starter' | 'pro_monthly';
const PLANS: readonly PlanId[] = ['free', 'basic', 'starter', 'pro_monthly'];
/** Published-project limit of each plan; null = unlimited. */
const LIMIT: Readonly<Record<PlanId, number | null>> = { free: 0, basic: 1, starter: 2, pro_monthly: null };
const PROJECTS = 4;
const USER = 'ana';

interface Model {
  plan: PlanId;
  live: boolean[];
  deleted: boolean[];
  domains: string[][];
}

interface Real {
  k: HostingKit;
  projectIds: string[];
  nextDomain: number;
}

const isLive = (m: Model, i: number): boolean => !m.deleted[i] && m.live[i] === true;
const liveCount = (m: Model): number => m.live.filter((_, i) => isLive(m, i)).length;

type Outcome = { ok: true } | { ok: false; code: string };

/** What the model says the publish / custom-domain check gives for a project (SPEC §5). */
function allowed(m: Model, i: number): Outcome {
  if (m.deleted[i]) return { ok: false, code: 'PROJECTS.NOT_FOUND' };
  const limit = LIMIT[m.plan];
  if (limit === null || isLive(m, i)) return { ok: true };
  if (limit === 0) return { ok: false, code: 'PUBLISHING.NOT_INCLUDED' };
  if (liveCount(m) >= limit) return { ok: false, code: 'PUBLISHING.LIMIT_REACHED' };
  return { ok: true };
}

const outcomeOf = (r: { ok: boolean; error?: { code: string } }): Outcome => (r.ok ? { ok: true } : { ok: false, code: (r.error as { code: string }).code });

/** After every command: the published count, the plan, what the hosts serve and the domains follow the model. */
async function checkState(m: Model, r: Real) {
  expect(await r.k.projects.countPublishedByCreator(USER)).toBe(liveCount(m));
  expect((await r.k.profiles.findById(USER))?.subscriptionPlan).toBe(m.plan);
  for (let i = 0; i < PROJECTS; i += 1) {
    const id = r.projectIds[i] as string;
    const site = await r.k.hosting.findSite(id);
    if (m.deleted[i]) continue;
    expect(site !== null && r.k.provider.served(r.k.urls.hostFor(site.slug)) !== null).toBe(m.live[i]);
    expect((await r.k.hosting.listDomains(id)).map((d) => d.host)).toEqual(m.domains[i]);
  }
}

abstract class Step implements fc.AsyncCommand<Model, Real> {
  constructor(readonly idx: number) {}
  check(m: Readonly<Model>): boolean {
    return m.live.length === PROJECTS;
  }
  abstract run(m: Model, r: Real): Promise<void>;
  abstract toString(): string;
  protected id = (r: Real) => r.projectIds[this.idx] as string;
}

class Publish extends Step {
  async run(m: Model, r: Real) {
    const want = allowed(m, this.idx);
    expect(outcomeOf(await r.k.publish.execute({ userId: USER, projectId: this.id(r) }))).toEqual(want);
    if (want.ok) m.live[this.idx] = true;
    await checkState(m, r);
  }
  override toString() {
    return `Publish(${this.idx})`;
  }
}

class Unpublish extends Step {
  async run(m: Model, r: Real) {
    const want: Outcome = m.deleted[this.idx]
      ? { ok: false, code: 'PROJECTS.NOT_FOUND' }
      : m.live[this.idx]
        ? { ok: true }
        : { ok: false, code: 'HOSTING.NOT_PUBLISHED' };
    expect(outcomeOf(await r.k.unpublish.execute({ userId: USER, projectId: this.id(r) }))).toEqual(want);
    if (want.ok) m.live[this.idx] = false;
    await checkState(m, r);
  }
  override toString() {
    return `Unpublish(${this.idx})`;
  }
}

class AddDomain extends Step {
  async run(m: Model, r: Real) {
    const check = allowed(m, this.idx);
    const want: Outcome = check.ok && (m.domains[this.idx]?.length ?? 0) >= MAX_DOMAINS_PER_PROJECT ? { ok: false, code: 'HOSTING.TOO_MANY_DOMAINS' } : check;
    r.nextDomain += 1;
    const host = `site${r.nextDomain}.example.com`;
    expect(outcomeOf(await r.k.addDomain.execute({ userId: USER, projectId: this.id(r), domainName: host }))).toEqual(want);
    if (want.ok) m.domains[this.idx]?.push(host);
    await checkState(m, r);
  }
  override toString() {
    return `AddDomain(${this.idx})`;
  }
}

class RemoveDomain extends Step {
  async run(m: Model, r: Real) {
    const host = m.domains[this.idx]?.[0] ?? 'none.example.com';
    const want: Outcome = m.deleted[this.idx]
      ? { ok: false, code: 'PROJECTS.NOT_FOUND' }
      : m.domains[this.idx]?.length
        ? { ok: true }
        : { ok: false, code: 'HOSTING.DOMAIN_NOT_FOUND' };
    expect(outcomeOf(await r.k.removeDomain.execute({ userId: USER, projectId: this.id(r), domainName: host }))).toEqual(want);
    if (want.ok) m.domains[this.idx]?.shift();
    await checkState(m, r);
  }
  override toString() {
    return `RemoveDomain(${this.idx})`;
  }
}

class DeleteProject extends Step {
  override check(m: Readonly<Model>): boolean {
    return !m.deleted[this.idx];
  }
  async run(m: Model, r: Real) {
    // The domain stays on the row: a deleted project with a domain must no longer count, and its hosts stop answering.
    const site = await r.k.hosting.findSite(this.id(r));
    expect((await r.k.deleteProject.execute(USER, this.id(r))).ok).toBe(true);
    if (site) expect(r.k.provider.served(r.k.urls.hostFor(site.slug))).toBeNull();
    for (const host of m.domains[this.idx] ?? []) expect(r.k.provider.served(host)).toBeNull();
    m.deleted[this.idx] = true;
    await checkState(m, r);
  }
  override toString() {
    return `DeleteProject(${this.idx})`;
  }
}

class ChangePlan implements fc.AsyncCommand<Model, Real> {
  constructor(readonly planId: PlanId) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const result = await r.k.changePlan.execute({ userId: USER, planId: this.planId });
    expect(result.ok && result.value.planChanged).toBe(m.plan !== this.planId);
    m.plan = this.planId;
    await checkState(m, r);
  }
  toString = () => `ChangePlan(${this.planId})`;
}

class AdvanceClock implements fc.AsyncCommand<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const before = await r.k.checkPublishAllowed.execute({ userId: USER });
    r.k.clock.advance(this.days * DAY_MS);
    // Rolling the allowance cycle forward must not touch publishing either.
    expect((await r.k.grantMonthlyAllowance.execute({ userId: USER })).ok).toBe(true);
    expect(await r.k.checkPublishAllowed.execute({ userId: USER })).toEqual(before);
    await checkState(m, r);
  }
  toString = () => `AdvanceClock(${this.days}d)`;
}

class Check extends Step {
  async run(m: Model, r: Real) {
    expect(outcomeOf(await r.k.checkProjectPublish.execute({ userId: USER, projectId: this.id(r) }))).toEqual(allowed(m, this.idx));
  }
  override toString() {
    return `Check(${this.idx})`;
  }
}

const idx = fc.integer({ min: 0, max: PROJECTS - 1 });
const commands = fc.commands(
  [
    idx.map((i) => new Publish(i)),
    idx.map((i) => new Unpublish(i)),
    idx.map((i) => new AddDomain(i)),
    idx.map((i) => new RemoveDomain(i)),
    idx.map((i) => new DeleteProject(i)),
    fc.constantFrom(...PLANS).map((p) => new ChangePlan(p)),
    fc.integer({ min: 0, max: 400 }).map((d) => new AdvanceClock(d)),
    idx.map((i) => new Check(i)),
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

/** One user with PROJECTS projects (each with a sandbox), none published, on `plan`. */
async function setUp(plan: PlanId): Promise<{ model: Model; real: Real }> {
  const k = createHostingKit({ plans: catalog() });
  k.clock.set(new Date('2026-01-15T10:00:00Z'));
  await signUp(k, USER);
  k.clock.advance(DAY_MS);
  if (!(await k.changePlan.execute({ userId: USER, planId: 'pro_monthly' })).ok) throw new Error('set-up: upgrade failed');
  const projectIds: string[] = [];
  for (let i = 0; i < PROJECTS; i += 1) {
    const p = await k.createProject.execute({ creatorId: USER, name: `Site ${i}` });
    if (!p.ok) throw new Error(`set-up: ${p.error.message}`);
    await k.sandboxes.ensure(p.value.id);
    projectIds.push(p.value.id);
  }
  k.clock.advance(DAY_MS);
  if (!(await k.changePlan.execute({ userId: USER, planId: plan })).ok) throw new Error('set-up: plan change failed');
  const fill = <T>(value: () => T) => Array.from({ length: PROJECTS }, value);
  return {
    model: { plan, live: fill(() => false), deleted: fill(() => false), domains: fill(() => []) },
    real: { k, projectIds, nextDomain: 0 },
  };
}

describe('publish limits — command model over the hosting use cases', () => {
  it('every publish, unpublish and domain decision (allowed or denied, and the error code) matches the model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLANS), commands, async (plan, cmds) => {
        const { model, real } = await setUp(plan);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      }),
      { numRuns: 200 },
    );
  });

  it('the model reaches every outcome (so the property above is not vacuous)', async () => {
    const { model, real } = await setUp('starter');
    const outcomes: string[] = [];
    const run = async (c: Step | ChangePlan | AdvanceClock) => {
      if (c instanceof Publish || c instanceof AddDomain) {
        const want = allowed(model, c.idx);
        outcomes.push(want.ok ? 'ok' : want.code);
      }
      await c.run(model, real);
    };
    await run(new Publish(0));
    await run(new Publish(1));
    await run(new Publish(2)); // denied: limit 2 reached
    await run(new AddDomain(2)); // denied: limit 2 reached
    await run(new AddDomain(0)); // allowed: already published
    await run(new Publish(0)); // allowed: already published (release 2)
    await run(new DeleteProject(0)); // frees a slot although its domain stays
    await run(new Publish(2));
    await run(new ChangePlan('basic')); // 2 published on a 1-project plan
    await run(new Publish(3)); // denied: limit reached
    await run(new Publish(1)); // allowed: already published
    await run(new ChangePlan('free'));
    await run(new Publish(3)); // denied: not included
    await run(new AddDomain(3)); // denied: not included
    await run(new Unpublish(2));
    await run(new Publish(2)); // denied now: free
    await run(new AdvanceClock(45));
    await run(new ChangePlan('pro_monthly'));
    await run(new Publish(3)); // unlimited
    await run(new Publish(0)); // deleted
    expect(outcomes).toEqual([
      'ok',
      'ok',
      'PUBLISHING.LIMIT_REACHED',
      'PUBLISHING.LIMIT_REACHED',
      'ok',
      'ok',
      'ok',
      'PUBLISHING.LIMIT_REACHED',
      'ok',
      'PUBLISHING.NOT_INCLUDED',
      'PUBLISHING.NOT_INCLUDED',
      'PUBLISHING.NOT_INCLUDED',
      'ok',
      'PROJECTS.NOT_FOUND',
    ]);
    expect(await real.k.projects.countPublishedByCreator(USER)).toBe(2);
  });
});
