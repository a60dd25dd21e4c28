import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, newUser, signIn, startTestApp } from '../testing/e2e.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CODE = /^[A-HJ-NP-Z2-9]{6}$/;

describe('profile (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('GET /api/profile', () => {
    it('creates the profile on first use and answers every SPEC §3 field', async () => {
      const user = newUser('  Ana Lima ');
      const response = await t.http().get('/api/profile').set(user.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: user.id,
        name: 'Ana Lima',
        email: user.email,
        date_of_birth: null,
        organization: null,
        role: 'other',
        subscription_plan: 'free',
        subscription_id: null,
        subscription_status: null,
        billing_interval: null,
        customer_id: null,
        preferred_currency: 'USD',
        credits: 5,
        referral_credits: 0,
        extra_credits: 0,
        referral_code: expect.stringMatching(CODE),
        referred_by: null,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
        last_sign_in_at: expect.stringMatching(ISO),
        billing_cycle_start_date: null,
        billing_cycle_end_date: null,
        first_purchased_date: null,
        subscription_end_date: null,
        pro_multiplier: 1,
      });
    });

    it('answers the same profile on later calls', async () => {
      const user = newUser();
      const first = await t.http().get('/api/profile').set(user.auth);
      const second = await t.http().get('/api/profile').set(user.auth);
      expect(second.body).toEqual(first.body);
    });

    it('reflects the ledger: credits drop after a prompt', async () => {
      const user = newUser();
      await t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', 'p1').expect(200);
      expect((await t.http().get('/api/profile').set(user.auth)).body.credits).toBe(4);
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().get('/api/profile')).body.code).toBe('no_authorization');
      const forged = await t.http().get('/api/profile').set('Authorization', 'Bearer not.a.token');
      expect(forged.status).toBe(401);
      expect(forged.body.code).toBe('bad_jwt');
    });
  });

  describe('PATCH /api/profile', () => {
    it('changes name, date_of_birth, organization, role and preferred_currency', async () => {
      const user = newUser();
      const before = (await t.http().get('/api/profile').set(user.auth)).body;
      const response = await t
        .http()
        .patch('/api/profile')
        .set(user.auth)
        .send({ name: ' Ana Lima ', date_of_birth: '1990-04-01', organization: 'Acme', role: 'founder', preferred_currency: 'inr' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        ...before,
        name: 'Ana Lima',
        date_of_birth: '1990-04-01',
        organization: 'Acme',
        role: 'founder',
        preferred_currency: 'INR',
        updated_at: expect.stringMatching(ISO),
      });
      expect((await t.http().get('/api/profile').set(user.auth)).body).toMatchObject({ name: 'Ana Lima', role: 'founder' });
    });

    it('changes only the fields sent; null clears date_of_birth and organization', async () => {
      const user = newUser('Bo');
      await t.http().patch('/api/profile').set(user.auth).send({ date_of_birth: '2000-02-29', organization: 'Acme' }).expect(200);
      const response = await t.http().patch('/api/profile').set(user.auth).send({ date_of_birth: null, organization: null });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ name: 'Bo', date_of_birth: null, organization: null, role: 'other' });
    });

    it.each([
      [{ credits: 1000 }, 'credits: is not allowed'],
      [{ subscription_plan: 'pro_monthly' }, 'subscription_plan: is not allowed'],
      [{ referral_code: 'AAAAAA', email: 'x@example.com' }, 'referral_code: is not allowed; email: is not allowed'],
      [{ name: 42 }, 'name: must be a string'],
      [{ name: null }, 'name: must be a string'],
      [{ name: 'x'.repeat(201) }, 'name: must be shorter than or equal to 200 characters'],
      [{ date_of_birth: '01/04/1990' }, 'date_of_birth: must be a date written YYYY-MM-DD'],
      [{ date_of_birth: '1990-02-30' }, 'date_of_birth: must be a real calendar date'],
      [{ role: '' }, 'role: must be one of founder, developer, designer, product_manager, marketer, student, other'],
      [{ role: 'Chief Tinkerer' }, 'role: must be one of founder, developer, designer, product_manager, marketer, student, other'],
      [{ preferred_currency: 'EUR' }, 'preferred_currency: must be one of USD, INR'],
    ])('refuses %j with 400 VALIDATION_FAILED', async (body, detail) => {
      const user = newUser();
      const response = await t.http().patch('/api/profile').set(user.auth).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });

    it('answers 401 without a token', async () => {
      expect((await t.http().patch('/api/profile').send({ name: 'x' })).status).toBe(401);
    });
  });

  describe('POST /api/profile/ensure', () => {
    it('creates the profile (created: true, referral: null), then finds it (created: false)', async () => {
      const user = newUser('Cy');
      const first = await t.http().post('/api/profile/ensure').set(user.auth).send({});
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ created: true, referral: null, profile: { id: user.id, name: 'Cy', credits: 5 } });
      const second = await t.http().post('/api/profile/ensure').set(user.auth);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ created: false, referral: null, profile: { id: user.id } });
    });

    it("applies a friend's referral code: both sides get 25 (the 'Welcome Bonus!')", async () => {
      const ana = newUser();
      const anaProfile = (await signIn(t, ana))['profile'] as { referral_code: string };
      const ben = newUser();
      const response = await t.http().post('/api/profile/ensure').set(ben.auth).send({ referral_code: ` ${anaProfile.referral_code.toLowerCase()} ` });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        created: true,
        referral: { applied: true, bonus: 25 },
        profile: { referred_by: ana.id, credits: 5, referral_credits: 25 },
      });
      expect((await t.http().get('/api/profile').set(ana.auth)).body.referral_credits).toBe(25);
    });

    it('a refused code does not fail the sign-in; the reason comes back', async () => {
      const user = newUser();
      const response = await t.http().post('/api/profile/ensure').set(user.auth).send({ referral_code: 'ZZZZZZ' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        created: true,
        referral: { applied: false, code: 'REFERRALS.UNKNOWN_CODE', detail: 'No account has this referral code' },
        profile: { referral_credits: 0 },
      });
    });

    it('treats a blank or null referral_code as none', async () => {
      const user = newUser();
      expect((await t.http().post('/api/profile/ensure').set(user.auth).send({ referral_code: '  ' })).body.referral).toBeNull();
      expect((await t.http().post('/api/profile/ensure').set(user.auth).send({ referral_code: null })).body.referral).toBeNull();
    });

    it.each([
      [{ referral_code: 12345 }, 'referral_code: must be a string'],
      [{ referral_code: 'x'.repeat(65) }, 'referral_code: must be shorter than or equal to 64 characters'],
      [{ plan: 'pro_monthly' }, 'plan: is not allowed'],
    ])('refuses %j with 400', async (body, detail) => {
      const user = newUser();
      const response = await t.http().post('/api/profile/ensure').set(user.auth).send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().post('/api/profile/ensure').send({})).status).toBe(401);
      expect((await t.http().post('/api/profile/ensure').set('Authorization', 'Bearer forged').send({})).status).toBe(401);
    });
  });
});
