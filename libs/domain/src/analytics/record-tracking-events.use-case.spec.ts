import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryAnalyticsEventStore } from '../testing/in-memory-analytics-event-store.js';
import { InMemoryRateLimiter } from '../testing/auth/in-memory-rate-limiter.js';
import { RecordTrackingEvents } from './record-tracking-events.use-case.js';

function setup() {
  const store = new InMemoryAnalyticsEventStore();
  const clock = new FixedClock('2026-11-26T09:30:00.000Z');
  return { store, clock, record: new RecordTrackingEvents(store, new InMemoryRateLimiter(clock), clock) };
}

describe('RecordTrackingEvents (first-party analytics, SPEC §5, §7)', () => {
  it("keeps a batch with the sender's id and the server's time, fields flattened into properties", async () => {
    const { store, record } = setup();
    const result = await record.execute({
      userId: 'u1',
      clientAddress: '203.0.113.5',
      events: [
        { kind: 'custom', name: 'page_view', properties: { page_path: '/pricing' } },
        { kind: 'purchase', planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: 25, currency: 'USD' },
        { kind: 'page', name: 'click', category: 'builder', action: 'publish' },
      ],
    });
    expect(result).toEqual({ ok: true, value: { recorded: 3 } });
    const at = new Date('2026-11-26T09:30:00.000Z');
    expect(store.all()).toEqual([
      { name: 'page_view', kind: 'custom', properties: { page_path: '/pricing' }, userId: 'u1', occurredAt: at },
      { name: 'purchase', kind: 'purchase', properties: { planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: 25, currency: 'USD' }, userId: 'u1', occurredAt: at },
      { name: 'click', kind: 'page', properties: { category: 'builder', action: 'publish' }, userId: 'u1', occurredAt: at },
    ]);
  });

  it('accepts anonymous page views', async () => {
    const { store, record } = setup();
    await record.execute({ userId: null, clientAddress: '203.0.113.5', events: [{ kind: 'custom', name: 'page_view', properties: { page_path: '/' } }] });
    expect(store.all().map((e) => e.userId)).toEqual([null]);
  });

  it('refuses the whole batch on the first invalid event, with SPEC §5 message', async () => {
    const { store, record } = setup();
    const result = await record.execute({
      userId: null,
      clientAddress: '203.0.113.5',
      events: [
        { kind: 'custom', name: 'Login' },
        { kind: 'purchase', planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: '25' },
      ],
    });
    expect(result).toEqual({ ok: false, error: { code: 'ANALYTICS.INVALID_PLAN_PRICE', message: 'Purchase tracking needs a numeric planPrice' } });
    expect(store.all()).toEqual([]);
  });

  it("refuses a browser's 'prompt' event: prompts are counted by the server", async () => {
    const { store, record } = setup();
    const result = await record.execute({ userId: 'u1', clientAddress: '203.0.113.5', events: [{ kind: 'custom', name: ' prompt ' }] });
    expect(!result.ok && result.error.code).toBe('ANALYTICS.RESERVED_EVENT_NAME');
    expect(store.all()).toEqual([]);
  });

  it('an empty batch records nothing', async () => {
    const { store, record } = setup();
    expect(await record.execute({ userId: null, clientAddress: '203.0.113.5', events: [] })).toEqual({ ok: true, value: { recorded: 0 } });
    expect(store.all()).toEqual([]);
  });

  it('slows down one address sending batch after batch, not the others', async () => {
    const { store, clock, record } = setup();
    const batch = (clientAddress: string) => record.execute({ userId: null, clientAddress, events: [{ kind: 'custom', name: 'page_view' }] });
    for (let i = 0; i < 60; i += 1) expect((await batch('198.51.100.1')).ok).toBe(true);
    expect(await batch('198.51.100.1')).toEqual({
      ok: false,
      error: { code: 'ANALYTICS.RATE_LIMITED', message: 'Too many analytics events. Please wait 1 s.', retryAfterSeconds: 1 },
    });
    expect((await batch('198.51.100.2')).ok).toBe(true);
    clock.advance(1000);
    expect((await batch('198.51.100.1')).ok).toBe(true);
    expect(store.all()).toHaveLength(62);
  });
});
