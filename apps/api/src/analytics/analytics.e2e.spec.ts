import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, newUser, signIn, startTestApp } from '../testing/e2e.js';

/** First-party analytics over HTTP (issue #17): events in, the operators' daily chart out. */
describe('analytics (HTTP)', () => {
  let t: TestApp;
  let operator: TestUser;

  beforeAll(async () => {
    operator = newUser('Olu Operator');
    t = await startTestApp({ env: { OPERATOR_EMAILS: `someone@else.dev, ${operator.email.toUpperCase()}`, GA4_MEASUREMENT_ID: 'G-TEST1234', ANALYTICS_ON_LOCALHOST: 'true' } });
  });
  afterAll(() => t.close());

  const today = () => new Date().toISOString().slice(0, 10);
  const send = (events: unknown[], auth: Record<string, string> = {}) => t.http().post('/api/analytics/events').set(auth).send({ events });
  const activity = async (days = 1) => {
    const response = await t.http().get(`/api/analytics/daily-activity?days=${days}`).set(operator.auth);
    expect(response.status).toBe(200);
    return response.body.days as { day: string; page_views: number; signups: number; prompts: number }[];
  };

  it('serves the web its analytics settings without sign-in', async () => {
    const response = await t.http().get('/api/analytics/config');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ga4_measurement_id: 'G-TEST1234', ga4_script_origin: 'https://www.googletagmanager.com', enabled_on_localhost: true });
  });

  it('counts anonymous and signed-in page views, sign-ups and charged prompts per day, for operators', async () => {
    const before = (await activity())[0] ?? { page_views: 0, signups: 0, prompts: 0 };
    const ana = newUser('Ana');
    await signIn(t, ana);
    expect((await send([{ kind: 'custom', name: 'page_view', properties: { page_path: '/' } }])).status).toBe(202);
    const signedIn = await send(
      [
        { kind: 'custom', name: 'page_view', properties: { page_path: '/pricing' } },
        { kind: 'custom', name: 'Signup', properties: { method: 'email' } },
        { kind: 'purchase', planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: 25, currency: 'USD' },
      ],
      ana.auth,
    );
    expect(signedIn.status).toBe(202);
    expect(signedIn.body).toEqual({ recorded: 3 });
    // A prompt charged by the server counts; its replay does not.
    for (const key of ['m1', 'm1', 'm2']) expect((await t.http().post('/api/credits/consume').set(ana.auth).set('Idempotency-Key', key)).status).toBe(200);

    const days = await activity(7);
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toEqual({ day: today(), page_views: before.page_views + 2, signups: before.signups + 1, prompts: before.prompts + 2 });
    expect(days[0]?.day < today()).toBe(true);
  });

  it("refuses SPEC §5's broken events with its messages, and a browser's 'prompt'", async () => {
    const refused = async (event: unknown, detail: string) => {
      const response = await send([event]);
      expect(response.status).toBe(400);
      expect(response.body.detail).toBe(detail);
    };
    await refused({ kind: 'custom', name: ' ' }, 'Tracking events need a non-empty event name');
    await refused({ kind: 'page', name: 'click', action: 'publish' }, 'Page events need a category');
    await refused({ kind: 'page', name: 'click', category: 'builder' }, 'Page events need an action');
    await refused({ kind: 'purchase', planName: 'Pro Monthly', planPrice: 25 }, 'Purchase tracking needs a planId');
    await refused({ kind: 'purchase', planId: 'pro_monthly', planPrice: 25 }, 'Purchase tracking needs a planName');
    await refused({ kind: 'purchase', planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: '25' }, 'Purchase tracking needs a numeric planPrice');
    await refused({ kind: 'custom', name: 'prompt' }, "The event name 'prompt' is recorded by Kiln itself");
  });

  it('caps sizes: 25 events a batch, flat small properties, known kinds', async () => {
    const pageView = { kind: 'custom', name: 'page_view' };
    expect((await send(Array.from({ length: 26 }, () => pageView))).body.detail).toBe('events: must contain no more than 25 elements');
    const tooBig = await send([{ kind: 'custom', name: 'x', properties: { note: 'y'.repeat(501) } }]);
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.code).toBe('VALIDATION_FAILED');
    expect((await send([{ kind: 'custom', name: 'x', properties: { nested: { a: 1 } } }])).status).toBe(400);
    expect((await send([{ kind: 'other', name: 'x' }])).status).toBe(400);
    expect((await send([{ ...pageView, extra: 1 }])).status).toBe(400);
    expect((await t.http().post('/api/analytics/events').send({})).status).toBe(400);
  });

  it('the daily chart is for operators only, over 1 to 90 days', async () => {
    expect((await t.http().get('/api/analytics/daily-activity')).status).toBe(401);
    const stranger = newUser('Sam');
    const forbidden = await t.http().get('/api/analytics/daily-activity').set(stranger.auth);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ code: 'ANALYTICS.NOT_AN_OPERATOR', detail: 'Only operators can see site activity' });
    expect((await t.http().get('/api/analytics/daily-activity').set(operator.auth)).body.days).toHaveLength(30);
    for (const days of ['0', '91', 'x', '1.5']) expect((await t.http().get(`/api/analytics/daily-activity?days=${days}`).set(operator.auth)).status).toBe(400);
  });
});
