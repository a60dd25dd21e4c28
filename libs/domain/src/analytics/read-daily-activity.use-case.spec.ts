import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryAnalyticsEventStore } from '../testing/in-memory-analytics-event-store.js';
import { Operators, ReadDailyActivity } from './read-daily-activity.use-case.js';
import type { RecordedEvent } from './recorded-event.js';

const at = (name: string, iso: string): RecordedEvent => ({ name, kind: 'custom', properties: {}, userId: null, occurredAt: new Date(iso) });

async function setup() {
  const store = new InMemoryAnalyticsEventStore();
  await store.record([
    at('page_view', '2026-11-24T08:00:00.000Z'),
    at('page_view', '2026-11-24T09:00:00.000Z'),
    at('Signup', '2026-11-24T09:05:00.000Z'),
    at('prompt', '2026-11-26T07:00:00.000Z'),
    at('Login', '2026-11-26T07:00:00.000Z'),
    at('page_view', '2026-11-20T12:00:00.000Z'), // before the window
  ]);
  const read = new ReadDailyActivity(store, new Operators([' Ops@Kiln.dev ']), new FixedClock('2026-11-26T10:00:00.000Z'));
  return { store, read };
}

describe('ReadDailyActivity (operators only)', () => {
  it('answers every day of the last N UTC days, oldest first, today included, zeros where quiet', async () => {
    const { read } = await setup();
    expect(await read.execute({ email: 'ops@kiln.dev', days: 3 })).toEqual({
      ok: true,
      value: [
        { day: '2026-11-24', pageViews: 2, signups: 1, prompts: 0 },
        { day: '2026-11-25', pageViews: 0, signups: 0, prompts: 0 },
        { day: '2026-11-26', pageViews: 0, signups: 0, prompts: 1 },
      ],
    });
  });

  it.each([['someone@kiln.dev'], [null]])('refuses %p, who is not an operator', async (email) => {
    const { read } = await setup();
    expect(await read.execute({ email, days: 3 })).toEqual({ ok: false, error: { code: 'ANALYTICS.NOT_AN_OPERATOR', message: 'Only operators can see site activity' } });
  });

  it.each([[0], [91], [1.5], [Number.NaN]])('refuses days = %p', async (days) => {
    const { read } = await setup();
    expect((await read.execute({ email: 'ops@kiln.dev', days })).ok).toBe(false);
  });

  it('an empty operator list lets nobody in', async () => {
    expect(new Operators([]).includes('')).toBe(false);
    expect(new Operators(['', ' ']).includes(' ')).toBe(false);
  });
});
