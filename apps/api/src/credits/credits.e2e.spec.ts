import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, newUser, setPlan, startTestApp } from '../testing/e2e.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('credits (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const consume = (auth: Record<string, string>, key?: string) => {
    const req = t.http().post('/api/credits/consume').set(auth);
    return key === undefined ? req : req.set('Idempotency-Key', key);
  };

  describe('POST /api/credits/consume', () => {
    it('charges one prompt from the monthly allowance', async () => {
      const user = newUser();
      const response = await consume(user.auth, 'msg-1');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        credits_remaining: 4,
        replayed: false,
        debit: {
          idempotency_key: 'msg-1',
          amount: 1,
          metered: true,
          portions: [{ bucket: 'monthly', amount: 1 }],
          at: expect.stringMatching(ISO),
          cycle_start: expect.stringMatching(ISO),
        },
        balances: { credits: 4, referral_credits: 0, extra_credits: 0 },
      });
    });

    it('does not charge a key twice: the retry is replayed', async () => {
      const user = newUser();
      const first = await consume(user.auth, 'msg-1');
      const retry = await consume(user.auth, 'msg-1');
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual({ ...first.body, replayed: true });
      expect((await t.http().get('/api/usage').set(user.auth)).body.credits_remaining).toBe(4);
    });

    it("answers 402 CREDITS.LIMIT_REACHED with limit_type 'credit' once the credits are gone", async () => {
      const user = newUser();
      for (let i = 1; i <= 5; i += 1) await consume(user.auth, `k${i}`).expect(200);
      const response = await consume(user.auth, 'k6');
      expect(response.status).toBe(402);
      expect(response.body).toEqual({
        code: 'CREDITS.LIMIT_REACHED',
        limit_type: 'credit',
        detail: "You've used all your credits. Upgrade your plan or buy add-on credits to keep building.",
        available: 0,
        requested: 1,
      });
    });

    it('takes referral credits after the monthly allowance', async () => {
      const ana = newUser();
      const code = (await t.http().get('/api/referrals').set(ana.auth)).body.referral_code as string;
      const ben = newUser();
      await t.http().post('/api/referrals/apply').set(ben.auth).send({ code }).expect(200);
      for (let i = 1; i <= 5; i += 1) await consume(ben.auth, `k${i}`).expect(200);
      const sixth = await consume(ben.auth, 'k6');
      expect(sixth.status).toBe(200);
      expect(sixth.body.debit.portions).toEqual([{ bucket: 'referral', amount: 1 }]);
      expect(sixth.body.balances).toEqual({ credits: 0, referral_credits: 24, extra_credits: 0 });
      expect(sixth.body.credits_remaining).toBe(24);
    });

    it('keys are per user: the same key charges each user once', async () => {
      const a = newUser();
      const b = newUser();
      expect((await consume(a.auth, 'shared')).body.replayed).toBe(false);
      expect((await consume(b.auth, 'shared')).body.replayed).toBe(false);
    });

    it.each([
      [undefined, 'Idempotency-Key: header is required'],
      ['', 'Idempotency-Key: header is required'],
      ['k'.repeat(201), 'Idempotency-Key: header must be at most 200 characters'],
      ['caf\u00e9', 'Idempotency-Key: header must be printable ASCII characters without leading or trailing spaces'],
    ])('answers 400 VALIDATION_FAILED for the Idempotency-Key %p', async (key, detail) => {
      const user = newUser();
      const response = await consume(user.auth, key);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });

    it('accepts a key of exactly 200 printable characters', async () => {
      const user = newUser();
      expect((await consume(user.auth, `a b~${'x'.repeat(196)}`)).status).toBe(200);
    });

    it('answers 401 without a token and for a forged one, charging nothing', async () => {
      expect((await t.http().post('/api/credits/consume').set('Idempotency-Key', 'k')).status).toBe(401);
      expect((await consume({ Authorization: 'Bearer forged' }, 'k')).status).toBe(401);
    });
  });

  describe('POST /api/credits/refund', () => {
    it('does not exist: only the server refunds prompts (a client could otherwise undo its charges)', async () => {
      const user = newUser();
      await consume(user.auth, 'msg-1').expect(200);
      const response = await t.http().post('/api/credits/refund').set(user.auth).send({ idempotency_key: 'msg-1' });
      expect(response.status).toBe(404);
      expect((await t.http().get('/api/usage').set(user.auth)).body.credits_remaining).toBe(4);
    });
  });

  describe('GET /api/usage', () => {
    it('answers SPEC §3 usage stats for a new free user', async () => {
      const user = newUser();
      const response = await t.http().get('/api/usage').set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        prompts_total: 5,
        prompts_used: 0,
        prompts_percent_used: 0,
        private_projects_count: 0,
        private_projects_limit: 3,
        is_unlimited_private_projects: false,
        private_projects_percent_used: 0,
        published_projects_count: 0,
        published_projects_limit: 0,
        is_unlimited_published_projects: false,
        published_projects_percent_used: 0,
        is_unlimited_prompts: false,
        credits_remaining: 5,
        credits_from_plan: 5,
        credits_from_referrals: 0,
        credits_from_add_ons: 0,
        prompts_from_plan: 5,
        prompts_from_referrals: 0,
        is_limitless_plan: false,
        cycle_start: expect.stringMatching(ISO),
        cycle_end: expect.stringMatching(ISO),
      });
    });

    it('counts prompts and projects', async () => {
      const user = newUser();
      await consume(user.auth, 'a').expect(200);
      await consume(user.auth, 'b').expect(200);
      await t.http().post('/api/projects').set(user.auth).send({ name: 'One' }).expect(201);
      const response = await t.http().get('/api/usage').set(user.auth);
      expect(response.body).toMatchObject({
        prompts_used: 2,
        prompts_percent_used: 40,
        credits_remaining: 3,
        private_projects_count: 1,
        private_projects_percent_used: 33,
      });
    });

    it('shows unlimited limits for pro', async () => {
      const user = newUser();
      await t.http().get('/api/usage').set(user.auth).expect(200);
      await setPlan(t, user.id, 'pro_monthly');
      const response = await t.http().get('/api/usage').set(user.auth);
      expect(response.body).toMatchObject({
        private_projects_limit: -1,
        is_unlimited_private_projects: true,
        published_projects_limit: 'unlimited',
        is_unlimited_published_projects: true,
      });
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().get('/api/usage')).status).toBe(401);
      expect((await t.http().get('/api/usage').set('Authorization', 'Bearer forged')).status).toBe(401);
    });
  });
});
