import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, newUser, setPlan, startTestApp } from '../testing/e2e.js';

describe('plans (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/plans', () => {
    it('lists the plans with SPEC prices in major units, without a token', async () => {
      const response = await t.http().get('/api/plans');
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        {
          id: 'free',
          name: 'Free',
          plan_id: null,
          description: 'Try Kiln: 5 prompts a month.',
          price: 0,
          price_inr: 0,
          annual_price: 0,
          annual_price_inr: 0,
          currency: 'USD',
          billing_interval: null,
          interval_label: 'month',
          features: {
            prompts_per_month: 5,
            private_projects: 3,
            published_projects: 0,
            public_projects: 0,
            team_members: 0,
            support_level: 'basic',
          },
        },
        expect.objectContaining({
          id: 'pro_monthly',
          name: 'Pro Monthly',
          price: 25,
          price_inr: 2499,
          annual_price: 300,
          annual_price_inr: 29988,
          currency: 'USD',
          billing_interval: 'monthly',
          interval_label: 'month',
          features: {
            prompts_per_month: 25,
            private_projects: 'unlimited',
            published_projects: 'unlimited',
            public_projects: 0,
            team_members: 0,
            support_level: 'priority_email',
          },
        }),
        expect.objectContaining({
          id: 'pro_annual',
          price: 240,
          price_inr: 24000,
          annual_price: 240,
          annual_price_inr: 24000,
          billing_interval: 'annual',
          interval_label: 'year',
        }),
      ]);
    });
  });

  describe('GET /api/plans/current', () => {
    it('answers the caller’s plan: free for a new user', async () => {
      const user = newUser();
      const response = await t.http().get('/api/plans/current').set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: 'free', name: 'Free', price: 0, currency: 'USD', billing_interval: null, interval_label: 'month' });
    });

    it('prices the plan in the profile’s preferred currency', async () => {
      const user = newUser();
      await t.http().patch('/api/profile').set(user.auth).send({ preferred_currency: 'INR' }).expect(200);
      await setPlan(t, user.id, 'pro_monthly');
      const response = await t.http().get('/api/plans/current').set(user.auth);
      expect(response.body).toEqual({
        id: 'pro_monthly',
        name: 'Pro Monthly',
        price: 2499,
        currency: 'INR',
        billing_interval: 'monthly',
        interval_label: 'month',
      });
    });

    it('resolves an unknown stored plan to free (SPEC §4)', async () => {
      const user = newUser();
      await t.http().get('/api/profile').set(user.auth).expect(200);
      await setPlan(t, user.id, 'gold_legacy');
      expect((await t.http().get('/api/plans/current').set(user.auth)).body.id).toBe('free');
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().get('/api/plans/current')).status).toBe(401);
      expect((await t.http().get('/api/plans/current').set('Authorization', 'Bearer forged')).status).toBe(401);
    });
  });
});

describe('plans (HTTP) — configured upper tiers', () => {
  it('lists the tiers of PLAN_UPPER_TIERS after the standard plans', async () => {
    const basic = {
      id: 'basic',
      name: 'Basic',
      interval: 'monthly',
      priceUsdMinor: 999,
      priceInrMinor: 49900,
      promptsPerMonth: 10,
      privateProjects: 'unlimited',
      publishedProjects: 1,
    };
    const t = await startTestApp({ env: { PLAN_UPPER_TIERS: JSON.stringify([basic]) } });
    try {
      const response = await t.http().get('/api/plans');
      expect(response.body.map((p: { id: string }) => p.id)).toEqual(['free', 'pro_monthly', 'pro_annual', 'basic']);
      expect(response.body[3]).toMatchObject({
        price: 9.99,
        price_inr: 499,
        annual_price: 119.88,
        features: { prompts_per_month: 10, private_projects: 'unlimited', published_projects: 1 },
      });
    } finally {
      await t.close();
    }
  });
});
