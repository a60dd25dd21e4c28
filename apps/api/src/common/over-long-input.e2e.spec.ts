import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, newUser, signIn, startTestApp } from '../testing/e2e.js';

/**
 * Issue 12: "a 300-character name gives 500". Every name-like input of the API (sandbox paths
 * aside: their routes check length and links themselves) answers 400 VALIDATION_FAILED naming
 * the field and its limit, for 300 characters and for far more, and changes nothing.
 */
describe('over-long names and keys (HTTP)', () => {
  let t: TestApp;
  let user: TestUser;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp();
    user = newUser('Ana');
    await signIn(t, user);
    projectId = (await t.http().post('/api/projects').set(user.auth).send({ name: 'Short' })).body.id as string;
  });
  afterAll(async () => {
    await t.close();
  });

  const cases: readonly [string, (long: string) => ReturnType<ReturnType<TestApp['http']>['post']>, RegExp][] = [
    ['project name (create)', (long) => t.http().post('/api/projects').set(user.auth).send({ name: long }), /^name: must be shorter than or equal to 100 characters$/],
    ['project name (rename)', (long) => t.http().patch(`/api/projects/${projectId}`).set(user.auth).send({ name: long }), /^name: must be shorter than or equal to 100 characters$/],
    ['project domain', (long) => t.http().patch(`/api/projects/${projectId}`).set(user.auth).send({ domain: `${long}.com` }), /^domain: /],
    ['profile name', (long) => t.http().patch('/api/profile').set(user.auth).send({ name: long }), /^name: must be shorter than or equal to 200 characters$/],
    ['profile organization', (long) => t.http().patch('/api/profile').set(user.auth).send({ organization: long }), /^organization: must be shorter than or equal to 200 characters$/],
    ['profile role', (long) => t.http().patch('/api/profile').set(user.auth).send({ role: long }), /^role: /],
    ['referral code (apply)', (long) => t.http().post('/api/referrals/apply').set(user.auth).send({ code: long }), /^code: must be shorter than or equal to 64 characters$/],
    ['referral code (sign-up)', (long) => t.http().post('/api/profile/ensure').set(newUser().auth).send({ referral_code: long }), /^referral_code: /],
    // A header: Node itself refuses headers over 16 KB (431), so 8,000 characters at most here.
    ['Idempotency-Key', (long) => t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', long.slice(0, 8_000)), /Idempotency-Key/],
    ['plan id', (long) => t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: long }), /^plan_id: must be shorter than or equal to 64 characters$/],
    ['subscription id', (long) => t.http().post('/api/cancel-subscription').set(user.auth).send({ subscriptionId: long }), /^subscriptionId: must be shorter than or equal to 255 characters$/],
    ['turn idempotency key', (long) => t.http().post(`/api/projects/${projectId}/turns`).set(user.auth).send({ message: 'Hi', idempotency_key: long }), /^idempotency_key: /],
    ['template id', (long) => t.http().post('/api/ai/enhance-prompt').set(user.auth).send({ prompt: 'A todo app', template_id: long }), /^template_id: /],
  ];

  it.each(cases.flatMap(([label, call, detail]) => [300, 100_000].map((length) => [label, length, call, detail] as const)))(
    '%s of %i characters: 400 VALIDATION_FAILED',
    async (_label, length, call, detail) => {
      const response = await call('a'.repeat(length));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: expect.stringMatching(detail) });
    },
  );

  it('left the data as it was', async () => {
    expect((await t.http().get(`/api/projects/${projectId}`).set(user.auth)).body).toMatchObject({ name: 'Short', domain: null });
    expect((await t.http().get('/api/profile').set(user.auth)).body).toMatchObject({ name: 'Ana', credits: 5, referred_by: null });
    expect((await t.http().get('/api/projects').set(user.auth)).body).toHaveLength(1);
  });
});
