import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { SignJWT, createLocalJWKSet, jwtVerify } from 'jose';
import { type AuthTestApp, PASSWORD, freshEmail, startAuthApp } from './testing/auth-e2e.harness.js';

const V = { 'X-Supabase-Api-Version': '2024-01-01' };

const USER_FIELDS = [
  'id',
  'aud',
  'role',
  'email',
  'email_confirmed_at',
  'phone',
  'confirmation_sent_at',
  'confirmed_at',
  'recovery_sent_at',
  'last_sign_in_at',
  'app_metadata',
  'user_metadata',
  'identities',
  'created_at',
  'updated_at',
  'is_anonymous',
].sort();

/** Raw HTTP against /auth/v1: the exact shapes GOTRUE.md fixes. */
describe('/auth/v1 wire shapes', () => {
  let t: AuthTestApp;

  beforeAll(async () => {
    t = await startAuthApp();
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(() => {
    t.refillRateLimits();
  });

  async function confirmed(email = freshEmail()) {
    await t.http().post('/auth/v1/signup').set(V).send({ email, password: PASSWORD }).expect(200);
    const token = await t.latestCode(email);
    const verified = await t.http().post('/auth/v1/verify').set(V).send({ type: 'signup', email, token }).expect(200);
    return { email, session: verified.body as Record<string, unknown> & { access_token: string; refresh_token: string } };
  }

  describe('success bodies', () => {
    it('POST /signup answers 200 with the user (no session) and the GoTrue user fields', async () => {
      const email = freshEmail();
      const now = t.clock.now().toISOString();
      const res = await t.http().post('/auth/v1/signup').set(V).send({ email, password: PASSWORD, data: { full_name: 'Ana' }, gotrue_meta_security: {}, code_challenge: null });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(USER_FIELDS);
      expect(res.body).toMatchObject({
        aud: 'authenticated',
        role: 'authenticated',
        email,
        email_confirmed_at: null,
        phone: '',
        confirmation_sent_at: now,
        confirmed_at: null,
        recovery_sent_at: null,
        last_sign_in_at: null,
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: { full_name: 'Ana', email, email_verified: false, phone_verified: false, sub: res.body.id },
        created_at: now,
        updated_at: now,
        is_anonymous: false,
      });
      expect(res.body.identities).toEqual([
        {
          identity_id: expect.any(String),
          id: res.body.id,
          user_id: res.body.id,
          identity_data: { email, email_verified: false, phone_verified: false, sub: res.body.id },
          provider: 'email',
          last_sign_in_at: null,
          created_at: now,
          updated_at: now,
          email,
        },
      ]);
      expect(res.body).not.toHaveProperty('access_token');
    });

    it('POST /verify and POST /token answer a session: access_token, token_type, expires_in, expires_at, refresh_token, user', async () => {
      const { email, session } = await confirmed();
      const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
      expect(Object.keys(session).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user']);
      expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600, expires_at: nowSeconds + 3600 });
      expect(session.refresh_token).toMatch(/^[0-9a-f]{64}$/);

      const signedIn = await t.http().post('/auth/v1/token?grant_type=password').set(V).send({ email, password: PASSWORD }).expect(200);
      expect(Object.keys(signedIn.body).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user']);
      expect(Object.keys(signedIn.body.user).sort()).toEqual(USER_FIELDS);
      expect(signedIn.body.user).toMatchObject({ email, email_confirmed_at: expect.any(String), confirmed_at: expect.any(String), last_sign_in_at: expect.any(String) });
      expect(signedIn.body.user.user_metadata.email_verified).toBe(true);
      expect(signedIn.body.user.identities[0].identity_data.email_verified).toBe(true);

      const refreshed = await t.http().post('/auth/v1/token?grant_type=refresh_token').set(V).send({ refresh_token: signedIn.body.refresh_token }).expect(200);
      expect(Object.keys(refreshed.body).sort()).toEqual(['access_token', 'expires_at', 'expires_in', 'refresh_token', 'token_type', 'user']);
      expect(refreshed.body.refresh_token).not.toBe(signedIn.body.refresh_token);
    });

    it('access tokens are ES256 JWTs with GoTrue’s claims, verifiable with the published JWKS', async () => {
      const { session } = await confirmed();
      const jwks = await t.http().get('/auth/v1/.well-known/jwks.json').expect(200);
      expect(jwks.body.keys).toHaveLength(1);
      expect(jwks.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(jwks.body.keys[0]).not.toHaveProperty('d');

      const { payload, protectedHeader } = await jwtVerify(session.access_token, createLocalJWKSet(jwks.body), { currentDate: t.clock.now() });
      expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: jwks.body.keys[0].kid });
      const iat = Math.floor(t.clock.now().getTime() / 1000);
      expect(payload).toEqual({
        iss: `http://localhost:${t.config.port}/auth/v1`,
        sub: (session.user as { id: string }).id,
        aud: 'authenticated',
        iat,
        exp: iat + 3600,
        email: (session.user as { email: string }).email,
        phone: '',
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: (session.user as { user_metadata: unknown }).user_metadata,
        role: 'authenticated',
        aal: 'aal1',
        amr: [{ method: 'email/signup', timestamp: iat }],
        session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        is_anonymous: false,
      });
    });

    it('POST /otp, /resend and /recover answer 200 {}', async () => {
      const email = freshEmail();
      expect((await t.http().post('/auth/v1/otp').set(V).send({ email, create_user: true, data: {} })).body).toEqual({});
      t.clock.advance(60_000);
      const resend = await t.http().post('/auth/v1/resend').set(V).send({ type: 'signup', email });
      expect([resend.status, resend.body]).toEqual([200, {}]);
      const recover = await t.http().post('/auth/v1/recover').set(V).send({ email: freshEmail('unknown') });
      expect([recover.status, recover.body]).toEqual([200, {}]);
    });

    it('GET and PUT /user answer the user; POST /logout answers 204 with no body', async () => {
      const { email, session } = await confirmed();
      const auth = { ...V, Authorization: `Bearer ${session.access_token}` };
      const got = await t.http().get('/auth/v1/user').set(auth).expect(200);
      expect(Object.keys(got.body).sort()).toEqual(USER_FIELDS);
      expect(got.body.email).toBe(email);
      const put = await t.http().put('/auth/v1/user').set(auth).send({ data: { theme: 'dark' } }).expect(200);
      expect(put.body.user_metadata.theme).toBe('dark');
      const logout = await t.http().post('/auth/v1/logout?scope=local').set(auth);
      expect(logout.status).toBe(204);
      expect(logout.text).toBe('');
      const after = await t.http().get('/auth/v1/user').set(auth);
      expect([after.status, after.body]).toEqual([403, { code: 'session_not_found', message: 'Session from session_id claim in JWT does not exist' }]);
    });

    it('GET /settings and GET /health answer GoTrue’s shapes', async () => {
      const settings = await t.http().get('/auth/v1/settings').expect(200);
      expect(settings.body).toMatchObject({ external: { email: true, phone: false }, disable_signup: false, mailer_autoconfirm: false });
      expect((await t.http().get('/auth/v1/health').expect(200)).body).toMatchObject({ name: 'GoTrue' });
    });

    it('echoes the API version header on success too', async () => {
      const res = await t.http().get('/auth/v1/settings').set(V);
      expect(res.headers['x-supabase-api-version']).toBe('2024-01-01');
    });
  });

  describe('error shapes', () => {
    const weak = (headers: Record<string, string>) => t.http().post('/auth/v1/signup').set(headers).send({ email: freshEmail(), password: 'short' });

    it('with X-Supabase-Api-Version: { code, message }, the version echoed, x-sb-error-code set', async () => {
      const res = await t.http().post('/auth/v1/token?grant_type=password').set(V).send({ email: freshEmail(), password: 'whatever1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
      expect(res.headers['x-supabase-api-version']).toBe('2024-01-01');
      expect(res.headers['x-sb-error-code']).toBe('invalid_credentials');
    });

    it('without it: the older { code: <status>, error_code, msg } and x-sb-error-code', async () => {
      const res = await t.http().post('/auth/v1/token?grant_type=password').send({ email: freshEmail(), password: 'whatever1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });
      expect(res.headers['x-supabase-api-version']).toBeUndefined();
      expect(res.headers['x-sb-error-code']).toBe('invalid_credentials');
    });

    it('a later version date gets the newest known version; a malformed one the old shape', async () => {
      const later = await t.http().post('/auth/v1/token?grant_type=password').set('X-Supabase-Api-Version', '2030-06-01').send({});
      expect(later.headers['x-supabase-api-version']).toBe('2024-01-01');
      expect(later.body.code).toBe('validation_failed');
      const malformed = await t.http().post('/auth/v1/token?grant_type=password').set('X-Supabase-Api-Version', 'yesterday').send({});
      expect(malformed.headers['x-supabase-api-version']).toBeUndefined();
      expect(malformed.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
    });

    it('weak_password: 422 with weak_password.reasons, in both shapes', async () => {
      const modern = await weak(V);
      expect(modern.status).toBe(422);
      expect(modern.body).toEqual({ code: 'weak_password', message: 'Password should be at least 8 characters.', weak_password: { reasons: ['length'] } });
      const old = await weak({});
      expect(old.body).toEqual({ code: 422, error_code: 'weak_password', msg: 'Password should be at least 8 characters.', weak_password: { reasons: ['length'] } });
    });

    it('429s carry Retry-After', async () => {
      const email = freshEmail();
      await t.http().post('/auth/v1/signup').set(V).send({ email, password: PASSWORD }).expect(200);
      t.clock.advance(15_000);
      const res = await t.http().post('/auth/v1/resend').set(V).send({ type: 'signup', email });
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ code: 'over_email_send_rate_limit', message: 'For security purposes, you can only request this after 45 seconds.' });
      expect(res.headers['retry-after']).toBe('45');
    });

    it('missing bearer: 401 no_authorization; a bad one: 403 bad_jwt', async () => {
      const missing = await t.http().get('/auth/v1/user').set(V);
      expect([missing.status, missing.body.code]).toEqual([401, 'no_authorization']);
      const garbage = await t.http().get('/auth/v1/user').set({ ...V, Authorization: 'Bearer not-a-jwt' });
      expect([garbage.status, garbage.body.code]).toEqual([403, 'bad_jwt']);
      const forged = await new SignJWT({ sub: 'x', aud: 'authenticated', session_id: 'y' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('a'.repeat(40)));
      const hs = await t.http().get('/auth/v1/user').set({ ...V, Authorization: `Bearer ${forged}` });
      expect([hs.status, hs.body.code]).toEqual([403, 'bad_jwt']);
      const logout = await t.http().post('/auth/v1/logout').set(V);
      expect([logout.status, logout.body.code]).toEqual([401, 'no_authorization']);
    });

    it('an expired access token is bad_jwt', async () => {
      const { session } = await confirmed();
      t.clock.advance(3600_000);
      const res = await t.http().get('/auth/v1/user').set({ ...V, Authorization: `Bearer ${session.access_token}` });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'bad_jwt', message: expect.stringContaining('expired') });
    });
  });

  describe('request validation (SPEC §5)', () => {
    it.each([
      ['/auth/v1/signup', { email: 'a@example.com' }, 'You must provide either an email or phone number and a password'],
      ['/auth/v1/signup', { password: PASSWORD }, 'You must provide either an email or phone number and a password'],
      ['/auth/v1/token?grant_type=password', {}, 'You must provide either an email or phone number and a password'],
      ['/auth/v1/otp', {}, 'You must provide either an email or phone number.'],
      ['/auth/v1/resend', { email: 'a@example.com' }, 'You must provide either an email or phone number and a type'],
      ['/auth/v1/resend', { type: 'signup' }, 'You must provide either an email or phone number and a type'],
      ['/auth/v1/resend', { type: 'sms', email: 'a@example.com' }, 'Missing one of these types: signup, email_change'],
      ['/auth/v1/recover', {}, 'Password recovery requires an email'],
      ['/auth/v1/verify', { email: 'a@example.com', token: '123456' }, 'Verify requires a verification type'],
      ['/auth/v1/verify', { type: 'signup', email: 'a@example.com' }, 'Verify requires an email and a token'],
      ['/auth/v1/token?grant_type=refresh_token', {}, 'refresh_token required'],
      ['/auth/v1/token?grant_type=magic', {}, 'unsupported_grant_type'],
      ['/auth/v1/token', {}, 'unsupported_grant_type'],
      ['/auth/v1/signup', { email: 'a@example.com', password: 12345678 }, 'password must be a string'],
      ['/auth/v1/signup', { email: 'not-an-email', password: PASSWORD }, 'Unable to validate email address: invalid format'],
      ['/auth/v1/signup', { email: 'a@example.com', password: PASSWORD, data: 'x' }, 'User metadata must be a JSON object'],
    ])('POST %s %j → 400 validation_failed "%s"', async (path, body, message) => {
      const res = await t.http().post(path).set(V).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'validation_failed', message });
    });

    it('invalid JSON → 400 bad_json, in GoTrue’s shape (not the /api one)', async () => {
      const res = await t.http().post('/auth/v1/signup').set(V).set('Content-Type', 'application/json').send('{"email": ');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'bad_json', message: expect.stringMatching(/^Could not parse request body as JSON: /) });
      expect(res.headers['x-sb-error-code']).toBe('bad_json');
    });

    it('a phone number → 400 phone_provider_disabled', async () => {
      const res = await t.http().post('/auth/v1/signup').set(V).send({ phone: '+15555550100', password: PASSWORD });
      expect([res.status, res.body.code]).toEqual([400, 'phone_provider_disabled']);
    });

    it('an unknown logout scope → 400', async () => {
      const { session } = await confirmed();
      const res = await t.http().post('/auth/v1/logout?scope=everyone').set({ ...V, Authorization: `Bearer ${session.access_token}` });
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    });
  });

  describe('CORS (through the whole app)', () => {
    it('answers an auth-js preflight from an allowed origin', async () => {
      const res = await t
        .http()
        .options('/auth/v1/token?grant_type=password')
        .set('Origin', 'http://localhost:5173')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,apikey,x-client-info,x-supabase-api-version,content-type');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'apikey', 'x-client-info', 'x-supabase-api-version', 'content-type']));
    });

    it('exposes X-Supabase-Api-Version on actual replies, errors included', async () => {
      const res = await t.http().post('/auth/v1/token?grant_type=password').set(V).set('Origin', 'http://localhost:5173').send({});
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(String(res.headers['access-control-expose-headers']).toLowerCase()).toContain('x-supabase-api-version');
    });

    it('gives no CORS grant to an unknown origin', async () => {
      const res = await t.http().post('/auth/v1/token?grant_type=password').set(V).set('Origin', 'https://evil.example').send({});
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('POST /api/auth/soft-delete', () => {
    it('deletes the caller’s account: sessions end, sign-in fails like an unknown address', async () => {
      const { email, session } = await confirmed();
      const res = await t.http().post('/api/auth/soft-delete').set('Authorization', `Bearer ${session.access_token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: (session.user as { id: string }).id, deleted_at: t.clock.now().toISOString(), subscription_cancelled: false, projects_hidden: 0 });
      const again = await t.http().post('/api/auth/soft-delete').set('Authorization', `Bearer ${session.access_token}`);
      expect([again.status, again.body.code]).toEqual([401, 'session_not_found']);
      const signIn = await t.http().post('/auth/v1/token?grant_type=password').set(V).send({ email, password: PASSWORD });
      expect(signIn.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
      const refresh = await t.http().post('/auth/v1/token?grant_type=refresh_token').set(V).send({ refresh_token: session.refresh_token });
      expect(refresh.body.code).toBe('refresh_token_not_found');
    });

    it('needs a bearer token', async () => {
      const res = await t.http().post('/api/auth/soft-delete');
      expect([res.status, res.body.code]).toEqual([401, 'no_authorization']);
    });
  });
});
