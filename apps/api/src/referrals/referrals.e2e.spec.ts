import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';

describe('referrals (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const codeOf = async (user: TestUser): Promise<string> => (await t.http().get('/api/referrals').set(user.auth)).body.referral_code as string;
  const apply = (user: TestUser, body: unknown) => t.http().post('/api/referrals/apply').set(user.auth).send(body as object);

  describe('GET /api/referrals', () => {
    it('answers the code, the share link on the first WEB_ORIGIN, and zero stats for a new user', async () => {
      const user = newUser();
      const response = await t.http().get('/api/referrals').set(user.auth);
      expect(response.status).toBe(200);
      const code = response.body.referral_code as string;
      expect(code).toMatch(/^[A-HJ-NP-Z2-9]{6}$/);
      expect(response.body).toEqual({
        referral_code: code,
        share_link: `http://localhost:5173/?ref=${code}`,
        referred_count: 0,
        credits_earned: 0,
      });
    });

    it('counts friends and the credits earned from them (not the welcome bonus)', async () => {
      const ana = newUser();
      const code = await codeOf(ana);
      const ben = newUser();
      const cy = newUser();
      await apply(ben, { code }).expect(200);
      await apply(cy, { code }).expect(200);
      expect((await t.http().get('/api/referrals').set(ana.auth)).body).toMatchObject({ referred_count: 2, credits_earned: 50 });
      expect((await t.http().get('/api/referrals').set(ben.auth)).body).toMatchObject({ referred_count: 0, credits_earned: 0 });
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().get('/api/referrals')).status).toBe(401);
      expect((await t.http().get('/api/referrals').set('Authorization', 'Bearer forged')).status).toBe(401);
    });
  });

  describe('POST /api/referrals/apply', () => {
    it('applies a friend’s code (as typed): both sides get 25 referral credits', async () => {
      const ana = newUser();
      const code = await codeOf(ana);
      const ben = newUser();
      const response = await apply(ben, { code: ` ${code.toLowerCase()} ` });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ applied: true, bonus: 25, referral_credits: 25 });
      expect((await t.http().get('/api/profile').set(ben.auth)).body).toMatchObject({ referred_by: ana.id, referral_credits: 25 });
      expect((await t.http().get('/api/profile').set(ana.auth)).body.referral_credits).toBe(25);
    });

    it('refuses a second referral with 409 REFERRALS.ALREADY_REFERRED and pays nothing more', async () => {
      const ana = newUser();
      const cy = newUser();
      const ben = newUser();
      await apply(ben, { code: await codeOf(ana) }).expect(200);
      for (const code of [await codeOf(ana), await codeOf(cy)]) {
        const response = await apply(ben, { code });
        expect(response.status).toBe(409);
        expect(response.body).toEqual({ code: 'REFERRALS.ALREADY_REFERRED', detail: 'A referral code has already been applied to this account' });
      }
      expect((await t.http().get('/api/profile').set(ana.auth)).body.referral_credits).toBe(25);
      expect((await t.http().get('/api/profile').set(cy.auth)).body.referral_credits).toBe(0);
    });

    it('refuses the code of someone you referred with 409 REFERRALS.CIRCULAR', async () => {
      const ana = newUser();
      const ben = newUser();
      await apply(ben, { code: await codeOf(ana) }).expect(200);
      const response = await apply(ana, { code: await codeOf(ben) });
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('REFERRALS.CIRCULAR');
    });

    it('refuses your own code with 400 REFERRALS.SELF_REFERRAL', async () => {
      const ana = newUser();
      const response = await apply(ana, { code: await codeOf(ana) });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'REFERRALS.SELF_REFERRAL', detail: 'You cannot use your own referral code' });
    });

    it('refuses a malformed code with 400 REFERRALS.INVALID_CODE', async () => {
      const response = await apply(newUser(), { code: 'ABCDE1' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'REFERRALS.INVALID_CODE', detail: 'This referral code is not valid', input: 'ABCDE1' });
    });

    it('refuses a well-formed code nobody holds with 404 REFERRALS.UNKNOWN_CODE', async () => {
      const response = await apply(newUser(), { code: 'ZZZZZZ' });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 'REFERRALS.UNKNOWN_CODE', detail: 'No account has this referral code' });
    });

    it.each([
      [{}, 'code: is required'],
      [{ code: 123456 }, 'code: must be a string'],
      [{ code: '' }, 'code: must be longer than or equal to 1 characters'],
      [{ code: 'ABCDEF', referrer: 'x' }, 'referrer: is not allowed'],
    ])('answers 400 VALIDATION_FAILED for %j', async (body, detail) => {
      const response = await apply(newUser(), body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail });
    });

    it('answers 401 without a token and for a forged one', async () => {
      expect((await t.http().post('/api/referrals/apply').send({ code: 'ABCDEF' })).status).toBe(401);
      expect((await t.http().post('/api/referrals/apply').set('Authorization', 'Bearer forged').send({ code: 'ABCDEF' })).status).toBe(401);
    });

    it('two simultaneous applies of one code pay once', async () => {
      const ana = newUser();
      const code = await codeOf(ana);
      const ben = newUser();
      await t.http().get('/api/profile').set(ben.auth).expect(200);
      const responses = await Promise.all([apply(ben, { code }), apply(ben, { code }), apply(ben, { code })]);
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      expect((await t.http().get('/api/profile').set(ben.auth)).body.referral_credits).toBe(25);
      expect((await t.http().get('/api/profile').set(ana.auth)).body.referral_credits).toBe(25);
    });
  });
});

describe('referrals (HTTP) — share link origin', () => {
  it('uses the first WEB_ORIGIN', async () => {
    const t = await startTestApp({ env: { WEB_ORIGIN: 'https://kiln.example.com/,http://localhost:5173' } });
    try {
      const user = newUser();
      const body = (await t.http().get('/api/referrals').set(user.auth)).body;
      expect(body.share_link).toBe(`https://kiln.example.com/?ref=${body.referral_code}`);
    } finally {
      await t.close();
    }
  });
});
