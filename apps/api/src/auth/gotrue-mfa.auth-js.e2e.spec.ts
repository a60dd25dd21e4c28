import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { type GoTrueClient, isAuthApiError } from '@supabase/auth-js';
import { TOTP } from 'otpauth';
import { type AuthTestApp, PASSWORD, freshEmail, startAuthApp } from './testing/auth-e2e.harness.js';

/**
 * `supabase.auth.mfa` (@supabase/auth-js, unchanged) against /auth/v1/factors over real HTTP:
 * enrol, challenge, verify, unenrol, the assurance level, and the API refusing a password-only
 * session of an account with a second factor. Codes come from otpauth's TOTP, as an
 * authenticator app would compute them, at the server's (fixed) clock.
 */
describe('auth-js mfa against /auth/v1/factors', () => {
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

  const codeFor = (secret: string): string => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: t.clock.now().getTime() });
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { aal: string; amr: { method: string }[] };

  async function confirmedUser(email = freshEmail('mfa')): Promise<{ email: string; client: GoTrueClient }> {
    const client = t.client();
    expect((await client.signUp({ email, password: PASSWORD })).error).toBeNull();
    expect((await client.verifyOtp({ email, token: (await t.latestCode(email)) ?? '', type: 'signup' })).error).toBeNull();
    return { email, client };
  }

  async function enrolledAndVerified() {
    const { email, client } = await confirmedUser();
    const enrolled = await client.mfa.enroll({ factorType: 'totp' });
    if (enrolled.error || enrolled.data.type !== 'totp') throw new Error(`enrol failed: ${enrolled.error?.message}`);
    const verified = await client.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: codeFor(enrolled.data.totp.secret) });
    expect(verified.error).toBeNull();
    return { email, client, factorId: enrolled.data.id, secret: enrolled.data.totp.secret };
  }

  it('enrols a TOTP factor (QR code, secret, otpauth URI), verifies it with a code, and the session becomes aal2', async () => {
    const { email, client } = await confirmedUser();
    const enrolled = await client.mfa.enroll({ factorType: 'totp', friendlyName: 'Phone' });
    expect(enrolled.error).toBeNull();
    if (enrolled.data?.type !== 'totp') throw new Error('not a totp factor');
    const { id, friendly_name, totp } = enrolled.data;
    expect(friendly_name).toBe('Phone');
    expect(totp.qr_code.startsWith('data:image/svg+xml;utf-8,<svg')).toBe(true);
    expect(totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(totp.uri).toBe(`otpauth://totp/Kiln:${encodeURIComponent(email)}?algorithm=SHA1&digits=6&issuer=Kiln&period=30&secret=${totp.secret}`);

    const pending = await client.mfa.listFactors();
    expect(pending.data?.all.map((f) => [f.id, f.factor_type, f.status])).toEqual([[id, 'totp', 'unverified']]);
    expect(pending.data?.totp).toEqual([]);
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    const challenge = await client.mfa.challenge({ factorId: id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ type: 'totp', expires_at: Math.floor(t.clock.now().getTime() / 1000) + 300 });

    const events: string[] = [];
    client.onAuthStateChange((event) => void events.push(event));
    const verified = await client.mfa.verify({ factorId: id, challengeId: challenge.data?.id ?? '', code: codeFor(totp.secret) });
    expect(verified.error).toBeNull();
    expect(claimsOf(verified.data?.access_token ?? '').aal).toBe('aal2');
    expect(claimsOf(verified.data?.access_token ?? '').amr.map((entry) => entry.method)).toEqual(['totp', 'email/signup']);
    expect(events).toContain('MFA_CHALLENGE_VERIFIED');
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect((await client.mfa.listFactors()).data?.totp.map((f) => [f.id, f.status])).toEqual([[id, 'verified']]);
  });

  it('answers a wrong code with 422 mfa_verification_failed, "Invalid TOTP code entered"', async () => {
    const { client } = await confirmedUser();
    const enrolled = await client.mfa.enroll({ factorType: 'totp' });
    if (enrolled.data?.type !== 'totp') throw new Error('not a totp factor');
    const right = codeFor(enrolled.data.totp.secret);
    const wrong = right === '000000' ? '111111' : '000000';
    const verified = await client.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: wrong });
    expect(isAuthApiError(verified.error)).toBe(true);
    expect(verified.error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
  });

  it('signs in with the password at aal1 (aal2 next), refuses /api until the code, refuses the same code twice', async () => {
    const { email, secret, factorId } = await enrolledAndVerified();
    const client = t.client();
    const signedIn = await client.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.factors?.map((f) => f.status)).toEqual(['verified']);
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });

    const aal1Token = signedIn.data.session?.access_token ?? '';
    const refused = await t.http().get('/api/profile').set('Authorization', `Bearer ${aal1Token}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_aal' });

    // The code used to verify the factor a moment ago does not work again within its 30 seconds.
    const replay = await client.mfa.challengeAndVerify({ factorId, code: codeFor(secret) });
    expect(replay.error).toMatchObject({ code: 'mfa_verification_failed' });

    t.clock.advance(30_000);
    const verified = await client.mfa.challengeAndVerify({ factorId, code: codeFor(secret) });
    expect(verified.error).toBeNull();
    expect((await client.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    const allowed = await t.http().get('/api/profile').set('Authorization', `Bearer ${verified.data?.access_token ?? ''}`);
    expect(allowed.status).toBe(200);
    // The aal1 session was swapped for the aal2 one: its token is over.
    expect((await t.http().get('/auth/v1/user').set('Authorization', `Bearer ${aal1Token}`)).status).toBe(403);
  });

  it('refuses an expired challenge', async () => {
    const { email, secret, factorId } = await enrolledAndVerified();
    const client = t.client();
    await client.signInWithPassword({ email, password: PASSWORD });
    const challenge = await client.mfa.challenge({ factorId });
    t.clock.advance(301_000);
    const late = await client.mfa.verify({ factorId, challengeId: challenge.data?.id ?? '', code: codeFor(secret) });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
  });

  it('removes a verified factor only from an aal2 session; then a password alone is enough again', async () => {
    const { email, client: aal2Client, factorId } = await enrolledAndVerified();
    const aal1Client = t.client();
    await aal1Client.signInWithPassword({ email, password: PASSWORD });
    const refused = await aal1Client.mfa.unenroll({ factorId });
    expect(refused.error).toMatchObject({ status: 403, code: 'insufficient_aal' });

    const removed = await aal2Client.mfa.unenroll({ factorId });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factorId });
    const again = t.client();
    await again.signInWithPassword({ email, password: PASSWORD });
    expect((await again.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });
  });

  it("cannot reach another person's factor, and needs a session for every route", async () => {
    const { factorId } = await enrolledAndVerified();
    const { client: mallory } = await confirmedUser(freshEmail('mallory'));
    expect((await mallory.mfa.challenge({ factorId })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect((await mallory.mfa.unenroll({ factorId })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const anonymous = await t.http().post('/auth/v1/factors').set('X-Supabase-Api-Version', '2024-01-01').send({ factor_type: 'totp' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
  });

  it('refuses an email or password change from a password-only session of an account with a factor (GoTrue: aal2 required)', async () => {
    const { email, client: aal2Client } = await enrolledAndVerified();
    const aal1Client = t.client();
    await aal1Client.signInWithPassword({ email, password: PASSWORD });
    const refused = await aal1Client.updateUser({ password: 'another long password' });
    expect(refused.error).toMatchObject({ status: 403, code: 'insufficient_aal', message: 'AAL2 session is required to update email or password when MFA is enabled.' });
    expect((await aal1Client.updateUser({ data: { theme: 'dark' } })).error).toBeNull();
    expect((await aal2Client.updateUser({ password: 'another long password' })).error).toBeNull();
  });
});
