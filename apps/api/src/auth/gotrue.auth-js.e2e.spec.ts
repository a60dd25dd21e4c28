import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type GoTrueClient, isAuthApiError, isAuthSessionMissingError, isAuthWeakPasswordError } from '@supabase/auth-js';
import { type AuthTestApp, PASSWORD, freshEmail, startAuthApp } from './testing/auth-e2e.harness.js';

/**
 * @supabase/auth-js itself, unchanged, against Kiln's /auth/v1 over real HTTP: the proof of
 * wire compatibility (GOTRUE.md).
 */
describe('@supabase/auth-js against /auth/v1', () => {
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

  /** Signs up and confirms with the mailed code; answers the client holding the session. */
  async function confirmedUser(email = freshEmail()): Promise<{ email: string; client: GoTrueClient }> {
    const client = t.client();
    const signedUp = await client.signUp({ email, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    const token = (await t.latestCode(email)) ?? '';
    const verified = await client.verifyOtp({ email, token, type: 'signup' });
    expect(verified.error).toBeNull();
    return { email, client };
  }

  it('signs up, verifies the mailed code, signs in, refreshes, reads and updates the user, signs out', async () => {
    const email = freshEmail('ana');
    const client = t.client();

    const signedUp = await client.signUp({ email, password: PASSWORD, options: { data: { full_name: 'Ana', is_signup: true } } });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).toBeNull();
    expect(signedUp.data.user).toMatchObject({ email, aud: 'authenticated', role: 'authenticated', email_confirmed_at: null });
    expect(signedUp.data.user?.user_metadata).toMatchObject({ full_name: 'Ana', is_signup: true });
    expect(signedUp.data.user?.identities).toHaveLength(1);

    const code = await t.latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await client.verifyOtp({ email, token: code ?? '', type: 'signup' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toBeTruthy();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();

    const signedIn = await client.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const session = signedIn.data.session;
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(session?.expires_at).toBe(Math.floor(t.clock.now().getTime() / 1000) + 3600);
    expect(signedIn.data.user?.id).toBe(verified.data.user?.id);

    t.clock.advance(60_000);
    const refreshed = await client.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(session?.refresh_token);
    expect(refreshed.data.session?.access_token).not.toBe(session?.access_token);

    const got = await client.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.email).toBe(email);

    const updated = await client.updateUser({ data: { full_name: 'Ana López' } });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toMatchObject({ full_name: 'Ana López', is_signup: true });

    const newPassword = await client.updateUser({ password: 'a brand new password' });
    expect(newPassword.error).toBeNull();
    expect((await t.client().signInWithPassword({ email, password: PASSWORD })).error?.code).toBe('invalid_credentials');
    expect((await t.client().signInWithPassword({ email, password: 'a brand new password' })).error).toBeNull();

    const accessToken = refreshed.data.session?.access_token ?? '';
    expect((await t.verifier.verify(accessToken)).ok).toBe(true);
    expect((await client.signOut()).error).toBeNull();
    expect((await client.getSession()).data.session).toBeNull();
    // the signed-out session's access token is refused at once, long before it expires
    expect(await t.verifier.verify(accessToken)).toMatchObject({ ok: false, error: { code: 'AUTH.SESSION_ENDED' } });
    const afterLogout = await t.client().getUser(accessToken);
    expect(isAuthSessionMissingError(afterLogout.error)).toBe(true);
  });

  it('invalid_credentials: unknown address and wrong password answer the same', async () => {
    const { email } = await confirmedUser();
    const wrong = await t.client().signInWithPassword({ email, password: 'not the password' });
    const unknown = await t.client().signInWithPassword({ email: freshEmail('nobody'), password: 'not the password' });
    for (const result of [wrong, unknown]) {
      expect(isAuthApiError(result.error)).toBe(true);
      expect(result.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
      expect(result.data.session).toBeNull();
    }

    const raw = async (address: string) =>
      t.http().post('/auth/v1/token?grant_type=password').set('X-Supabase-Api-Version', '2024-01-01').send({ email: address, password: 'not the password' });
    const [a, b] = [await raw(email), await raw(freshEmail('nobody'))];
    expect(a.status).toBe(b.status);
    expect(a.body).toEqual(b.body);
    expect(a.body).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });
  });

  it('email_not_confirmed only after the password is right', async () => {
    const email = freshEmail();
    await t.client().signUp({ email, password: PASSWORD });
    expect((await t.client().signInWithPassword({ email, password: 'wrong password' })).error?.code).toBe('invalid_credentials');
    expect((await t.client().signInWithPassword({ email, password: PASSWORD })).error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  });

  it('otp_expired for a bad code, a used code, an expired code and the sixth try', async () => {
    const verify = (client: GoTrueClient, email: string, token: string) => client.verifyOtp({ email, token, type: 'signup' });
    const expectExpired = (result: Awaited<ReturnType<typeof verify>>) =>
      expect(result.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
    const wrongOf = (code: string) => (code === '000000' ? '111111' : '000000');

    // bad code, then used code
    const a = freshEmail('a');
    await t.client().signUp({ email: a, password: PASSWORD });
    const codeA = (await t.latestCode(a)) ?? '';
    expectExpired(await verify(t.client(), a, wrongOf(codeA)));
    expect((await verify(t.client(), a, codeA)).error).toBeNull();
    expectExpired(await verify(t.client(), a, codeA));

    // expired code (10 minutes)
    const b = freshEmail('b');
    await t.client().signUp({ email: b, password: PASSWORD });
    const codeB = (await t.latestCode(b)) ?? '';
    t.clock.advance(10 * 60_000);
    expectExpired(await verify(t.client(), b, codeB));

    // five wrong tries kill it: the sixth, right, try fails
    t.refillRateLimits();
    const c = freshEmail('c');
    await t.client().signUp({ email: c, password: PASSWORD });
    const codeC = (await t.latestCode(c)) ?? '';
    for (let i = 0; i < 5; i += 1) expectExpired(await verify(t.client(), c, wrongOf(codeC)));
    expectExpired(await verify(t.client(), c, codeC));
  });

  it('weak_password with its reasons', async () => {
    const result = await t.client().signUp({ email: freshEmail(), password: 'short' });
    expect(isAuthWeakPasswordError(result.error)).toBe(true);
    expect(result.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'], message: 'Password should be at least 8 characters.' });

    const { client } = await confirmedUser();
    const update = await client.updateUser({ password: '1234567' });
    expect(isAuthWeakPasswordError(update.error)).toBe(true);
  });

  it('429 over_email_send_rate_limit when a code is asked again within 60 s', async () => {
    const email = freshEmail();
    await t.client().signUp({ email, password: PASSWORD });
    const early = await t.client().resend({ type: 'signup', email });
    expect(early.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });
    expect(await t.mailCount(email)).toBe(1);
    t.clock.advance(60_000);
    expect((await t.client().resend({ type: 'signup', email })).error).toBeNull();
    expect(await t.mailCount(email)).toBe(2);
    const code = (await t.latestCode(email)) ?? '';
    expect((await t.client().verifyOtp({ email, token: code, type: 'signup' })).error).toBeNull();
  });

  it('429 over_request_rate_limit after a burst of 30 from one address', async () => {
    const client = t.client();
    for (let i = 0; i < 30; i += 1) {
      expect((await client.resetPasswordForEmail(freshEmail('burst'))).error).toBeNull();
    }
    const limited = await client.resetPasswordForEmail(freshEmail('burst'));
    expect(limited.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    // other actions have their own buckets; time refills them
    expect((await client.signInWithPassword({ email: freshEmail(), password: PASSWORD })).error?.code).toBe('invalid_credentials');
    t.clock.advance(10_000);
    expect((await client.resetPasswordForEmail(freshEmail('burst'))).error).toBeNull();
  });

  it('refresh tokens rotate; a reuse within 10 s is accepted, after it the family is revoked', async () => {
    const { email } = await confirmedUser();
    const client = t.client();
    const first = (await client.signInWithPassword({ email, password: PASSWORD })).data.session;
    const second = (await client.refreshSession()).data.session;
    expect(second?.refresh_token).not.toBe(first?.refresh_token);

    // the parent of the active token, presented again: the active token comes back
    const again = await t.client().refreshSession({ refresh_token: first?.refresh_token ?? '' });
    expect(again.error).toBeNull();
    expect(again.data.session?.refresh_token).toBe(second?.refresh_token);

    const third = (await client.refreshSession()).data.session;
    t.clock.advance(5_000);
    const withinWindow = await t.client().refreshSession({ refresh_token: first?.refresh_token ?? '' });
    expect(withinWindow.data.session?.refresh_token).toBe(third?.refresh_token);

    t.clock.advance(6_000);
    const reused = await t.client().refreshSession({ refresh_token: first?.refresh_token ?? '' });
    expect(reused.error).toMatchObject({ status: 400, code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' });
    // the whole family is gone: the newest token and its access token too
    const newest = await t.client().refreshSession({ refresh_token: third?.refresh_token ?? '' });
    expect(newest.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    expect((await t.verifier.verify(third?.access_token ?? '')).ok).toBe(false);
  });

  it('signing up again with a confirmed address reveals nothing and mails nothing', async () => {
    const { email } = await confirmedUser();
    const real = (await t.client().signInWithPassword({ email, password: PASSWORD })).data.user;
    t.clock.advance(60_000);
    const mailsBefore = await t.mailCount(email);

    const again = await t.client().signUp({ email, password: 'someone else entirely' });
    expect(again.error).toBeNull();
    expect(again.data.session).toBeNull();
    expect(again.data.user).toMatchObject({ email, email_confirmed_at: null, identities: [] });
    expect(again.data.user?.id).not.toBe(real?.id);
    expect(await t.mailCount(email)).toBe(mailsBefore);
    // and the real account is untouched
    expect((await t.client().signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    expect((await t.client().signInWithPassword({ email, password: 'someone else entirely' })).error?.code).toBe('invalid_credentials');
  });

  it('signs in with a one-time code (signInWithOtp + verifyOtp type email)', async () => {
    const { email } = await confirmedUser();
    t.clock.advance(60_000);
    const client = t.client();
    expect((await client.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const verified = await client.verifyOtp({ email, token: (await t.latestCode(email)) ?? '', type: 'email' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.user.email).toBe(email);
  });

  it('resets a forgotten password: resetPasswordForEmail, verifyOtp recovery, updateUser', async () => {
    const { email } = await confirmedUser();
    t.clock.advance(60_000);
    const client = t.client();
    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });
    expect((await client.resetPasswordForEmail(email)).error).toBeNull();
    expect((await client.resetPasswordForEmail(freshEmail('unknown'))).error).toBeNull();
    const recovered = await client.verifyOtp({ email, token: (await t.latestCode(email)) ?? '', type: 'recovery' });
    expect(recovered.error).toBeNull();
    expect((await client.updateUser({ password: 'my new password 2' })).error).toBeNull();
    expect((await t.client().signInWithPassword({ email, password: 'my new password 2' })).error).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual(expect.arrayContaining(['PASSWORD_RECOVERY', 'USER_UPDATED']));
  });

  it('signOut local ends only that session; global ends them all', async () => {
    const { email } = await confirmedUser();
    const phone = t.client();
    const laptop = t.client();
    const phoneToken = (await phone.signInWithPassword({ email, password: PASSWORD })).data.session?.access_token ?? '';
    const laptopToken = (await laptop.signInWithPassword({ email, password: PASSWORD })).data.session?.access_token ?? '';

    expect((await phone.signOut({ scope: 'local' })).error).toBeNull();
    expect((await t.verifier.verify(phoneToken)).ok).toBe(false);
    expect((await t.verifier.verify(laptopToken)).ok).toBe(true);
    expect((await laptop.getUser()).data.user?.email).toBe(email);

    const third = t.client();
    await third.signInWithPassword({ email, password: PASSWORD });
    expect((await third.signOut({ scope: 'global' })).error).toBeNull();
    expect((await t.verifier.verify(laptopToken)).ok).toBe(false);
  });

  it('changes the email address through the code sent to the new one', async () => {
    const { email, client } = await confirmedUser();
    const next = freshEmail('next');
    const pending = await client.updateUser({ email: next });
    expect(pending.error).toBeNull();
    expect(pending.data.user).toMatchObject({ email, new_email: next });
    const verified = await client.verifyOtp({ email: next, token: (await t.latestCode(next)) ?? '', type: 'email_change' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(next);
    expect((await t.client().signInWithPassword({ email: next, password: PASSWORD })).error).toBeNull();
  });
});
