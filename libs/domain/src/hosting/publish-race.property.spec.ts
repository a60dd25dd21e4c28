import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PlanCatalog } from '../plans/plan-catalog.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { createHostingKit } from '../testing/hosting-kit.js';
import { signUp } from '../testing/test-kit.js';

/**
 * The publish limit under concurrency (STYLE.md: fc.scheduler finds lost updates in
 * read-then-write counters): simultaneous publishes and unpublishes of one person's projects, in
 * any interleaving, never leave more live sites than the plan allows, and the count, the
 * projects' domains and what the hosts serve always agree.
 */
function catalog(): PlanCatalog {
  const base = { interval: 'monthly', priceUsdMinor: 900, priceInrMinor: 79900, promptsPerMonth: 10, privateProjects: 10 } as const;
  const r = PlanCatalog.create([{ ...base, id: 'starter', name: 'Starter', publishedProjects: 2 }]);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const action = fc.record({ project: fc.integer({ min: 0, max: 4 }), publish: fc.boolean() });

describe('publish limit — concurrent publishes in any interleaving', () => {
  it('never more live sites than the limit, and every view of "published" agrees', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(action, { minLength: 2, maxLength: 8 }), async (s, actions) => {
        const gate = { on: false };
        const k = createHostingKit({ plans: catalog(), pause: () => (gate.on ? s.schedule(Promise.resolve(), 'step') : Promise.resolve()) });
        await signUp(k, 'ana');
        k.clock.advance(DAY_MS);
        if (!(await k.changePlan.execute({ userId: 'ana', planId: 'starter' })).ok) throw new Error('set-up: plan');
        const ids: string[] = [];
        for (let i = 0; i < 5; i += 1) {
          const p = await k.createProject.execute({ creatorId: 'ana', name: `Site ${i}` });
          if (!p.ok) throw new Error('set-up: project');
          await k.sandboxes.ensure(p.value.id);
          ids.push(p.value.id);
        }

        gate.on = true;
        const results = await s.waitFor(
          Promise.all(
            actions.map((a) => {
              const input = { userId: 'ana', projectId: ids[a.project] as string };
              return a.publish ? k.publish.execute(input) : k.unpublish.execute(input);
            }),
          ),
        );
        gate.on = false;

        for (const r of results) if (!r.ok) expect(['PUBLISHING.LIMIT_REACHED', 'HOSTING.NOT_PUBLISHED', 'PROJECTS.BUSY']).toContain(r.error.code);
        const count = await k.projects.countPublishedByCreator('ana');
        expect(count).toBeLessThanOrEqual(2);
        let live = 0;
        for (const id of ids) {
          const [project, site] = [await k.projects.findById(id), await k.hosting.findSite(id)];
          const isLive = site?.status === 'live';
          if (isLive) live += 1;
          // A live site's project holds its Kiln host, and only a live site's does.
          expect(project?.domain ?? null).toBe(isLive && site ? k.urls.hostFor(site.slug) : null);
          if (site) expect(k.provider.served(k.urls.hostFor(site.slug)) !== null).toBe(isLive);
        }
        expect(live).toBe(count);
      }),
      { numRuns: 150 },
    );
  });
});
