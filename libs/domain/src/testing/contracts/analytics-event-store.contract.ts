import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { AnalyticsEventStore, DailyEventCount } from '../../analytics/analytics-event-store.port.js';
import type { RecordedEvent } from '../../analytics/recorded-event.js';

export interface AnalyticsEventStoreHarness {
  /** A store with nothing recorded (called before every test). */
  fresh(): Promise<AnalyticsEventStore>;
  close?(): Promise<void>;
}

const event = (name: string, at: string, userId: string | null = null, properties: RecordedEvent['properties'] = {}): RecordedEvent => ({
  name,
  kind: 'custom',
  properties,
  userId,
  occurredAt: new Date(at),
});

const sorted = (counts: readonly DailyEventCount[]) => [...counts].sort((a, b) => (`${a.day} ${a.name}` < `${b.day} ${b.name}` ? -1 : 1));

const WEEK = { from: new Date('2026-11-20T00:00:00.000Z'), to: new Date('2026-11-27T00:00:00.000Z') };

/**
 * The AnalyticsEventStore contract: what is recorded is counted per UTC day and name, inside a
 * half-open window, for the names asked only; anonymous and signed-in events count alike.
 */
export function analyticsEventStoreContract(name: string, harness: () => Promise<AnalyticsEventStoreHarness>): void {
  describe(`AnalyticsEventStore contract: ${name}`, () => {
    let h: AnalyticsEventStoreHarness;
    let store: AnalyticsEventStore;

    beforeAll(async () => {
      h = await harness();
    });
    beforeEach(async () => {
      store = await h.fresh();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('counts nothing before anything is recorded', async () => {
      expect(await store.dailyCounts(['page_view'], WEEK)).toEqual([]);
    });

    it('counts events per UTC day and name, anonymous and signed-in alike', async () => {
      await store.record([
        event('page_view', '2026-11-24T00:00:00.000Z', null, { page_path: '/' }),
        event('page_view', '2026-11-24T23:59:59.999Z', 'u1', { page_path: '/pricing' }),
        event('page_view', '2026-11-25T00:00:00.000Z'),
        event('Signup', '2026-11-25T10:00:00.000Z', 'u2', { method: 'email' }),
      ]);
      expect(sorted(await store.dailyCounts(['page_view', 'Signup'], WEEK))).toEqual([
        { day: '2026-11-24', name: 'page_view', count: 2 },
        { day: '2026-11-25', name: 'Signup', count: 1 },
        { day: '2026-11-25', name: 'page_view', count: 1 },
      ]);
    });

    it('keeps to the window: from included, to excluded', async () => {
      await store.record([
        event('page_view', '2026-11-19T23:59:59.999Z'),
        event('page_view', '2026-11-20T00:00:00.000Z'),
        event('page_view', '2026-11-26T23:59:59.999Z'),
        event('page_view', '2026-11-27T00:00:00.000Z'),
      ]);
      expect(sorted(await store.dailyCounts(['page_view'], WEEK))).toEqual([
        { day: '2026-11-20', name: 'page_view', count: 1 },
        { day: '2026-11-26', name: 'page_view', count: 1 },
      ]);
    });

    it('counts only the names asked', async () => {
      await store.record([event('Login', '2026-11-24T08:00:00.000Z', 'u1'), event('prompt', '2026-11-24T08:01:00.000Z', 'u1')]);
      expect(await store.dailyCounts(['prompt'], WEEK)).toEqual([{ day: '2026-11-24', name: 'prompt', count: 1 }]);
      expect(await store.dailyCounts([], WEEK)).toEqual([]);
    });

    it('keeps names exactly as given (case and spaces matter)', async () => {
      await store.record([event('Project Created', '2026-11-24T08:00:00.000Z', 'u1', { project_id: 'p1' }), event('project created', '2026-11-24T08:00:00.000Z')]);
      expect(await store.dailyCounts(['Project Created'], WEEK)).toEqual([{ day: '2026-11-24', name: 'Project Created', count: 1 }]);
    });

    it('recording nothing changes nothing', async () => {
      await store.record([]);
      expect(await store.dailyCounts(['page_view'], WEEK)).toEqual([]);
    });

    it('the counts of any batches add up to the events recorded in the window (property)', async () => {
      const moment = fc.integer({ min: Date.parse('2026-11-18T00:00:00.000Z'), max: Date.parse('2026-11-28T00:00:00.000Z') - 1 });
      const batches = fc.array(fc.array(fc.record({ name: fc.constantFrom('page_view', 'Signup', 'prompt'), at: moment }), { maxLength: 5 }), { maxLength: 4 });
      await fc.assert(
        fc.asyncProperty(batches, async (bs) => {
          const s = await h.fresh();
          for (const b of bs) await s.record(b.map((e) => event(e.name, new Date(e.at).toISOString())));
          const counts = await s.dailyCounts(['page_view', 'Signup', 'prompt'], WEEK);
          const inWindow = bs.flat().filter((e) => e.at >= WEEK.from.getTime() && e.at < WEEK.to.getTime());
          expect(counts.reduce((sum, c) => sum + c.count, 0)).toBe(inWindow.length);
          for (const c of counts) {
            const expected = inWindow.filter((e) => e.name === c.name && new Date(e.at).toISOString().startsWith(c.day)).length;
            expect(c.count).toBe(expected);
          }
        }),
        { numRuns: 15 },
      );
    });
  });
}
