import { describe, expect, it } from '@jest/globals';
import { createAuthTestKit, signUpConfirmed } from '../testing/auth/auth-test-kit.js';
import { CODE_TTL_MS } from './auth.constants.js';

async function signedUp(email = 'ana@example.com') {
  const kit = createAuthTestKit();
  await kit.auth.signUp.execute({ email, password: 'correct horse battery' });
  return { kit, code: kit.mailer.lastCode(email) ?? '' };
}

const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

describe('VerifyOtp', () => {
  it('confirms the address and starts a session with GoTrue’s claims', async () => {
    const { kit, code } = await signedUp();
    const result = await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ANA@example.com', token: code });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const session = result.value;
    expect(session).toMatchObject({ tokenType: 'bearer', expiresIn: 3600, expiresAt: Math.floor(kit.clock.now().getTime() / 1000) + 3600 });
    expect(session.refreshToken).toMatch(/^[0-9a-f]{64}$/);
    expect(session.user.emailConfirmedAt).toEqual(kit.clock.now());
    expect(session.user.lastSignInAt).toEqual(kit.clock.now());
    expect(session.user.userMetadata['email_verified']).toBe(true);
    expect(kit.signer.claimsOf(session.accessToken)).toEqual({
      iss: 'http://localhost:3000/auth/v1',
      sub: session.user.id,
      aud: 'authenticated',
      iat: Math.floor(kit.clock.now().getTime() / 1000),
      exp: session.expiresAt,
      email: 'ana@example.com',
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: session.user.userMetadata,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'email/signup', timestamp: Math.floor(kit.clock.now().getTime() / 1000) }],
      session_id: session.sessionId,
      is_anonymous: false,
    });
  });

  it('accepts a code once', async () => {
    const { kit, code } = await signedUp();
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code })).ok).toBe(true);
    expect(await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code })).toEqual({
      ok: false,
      error: { code: 'AUTH.OTP_EXPIRED', message: 'Token has expired or is invalid' },
    });
  });

  it('refuses a code after ten minutes', async () => {
    const { kit, code } = await signedUp();
    kit.clock.advance(CODE_TTL_MS);
    const result = await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code });
    expect(!result.ok && result.error.code).toBe('AUTH.OTP_EXPIRED');
  });

  it('accepts it one millisecond before', async () => {
    const { kit, code } = await signedUp();
    kit.clock.advance(CODE_TTL_MS - 1);
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code })).ok).toBe(true);
  });

  it('kills a code after five wrong tries: the sixth try fails even with the right code', async () => {
    const { kit, code } = await signedUp();
    for (let i = 0; i < 5; i += 1) {
      const r = await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: wrong(code) });
      expect(!r.ok && r.error.code).toBe('AUTH.OTP_EXPIRED');
    }
    const sixth = await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code });
    expect(!sixth.ok && sixth.error.code).toBe('AUTH.OTP_EXPIRED');
  });

  it('a malformed token is refused without counting as a try', async () => {
    const { kit, code } = await signedUp();
    for (const token of ['12345', 'abcdef', '1234567', '']) {
      expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token })).ok).toBe(false);
    }
    expect(kit.codes.all()[0]?.failedAttempts).toBe(0);
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code })).ok).toBe(true);
  });

  it('refuses a code of another type or another address', async () => {
    const { kit, code } = await signedUp();
    await kit.auth.signUp.execute({ email: 'ben@example.com', password: 'correct horse battery' });
    expect((await kit.auth.verifyOtp.execute({ type: 'recovery', email: 'ana@example.com', token: code })).ok).toBe(false);
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ben@example.com', token: code })).ok).toBe(false);
    // type 'email' accepts a confirmation code (auth-js verifyOtp after signInWithOtp)
    expect((await kit.auth.verifyOtp.execute({ type: 'email', email: 'ana@example.com', token: code })).ok).toBe(true);
  });

  it('refuses the code of an account deleted meanwhile', async () => {
    const { kit, code } = await signedUp();
    const user = kit.users.all()[0];
    await kit.users.update(user?.id ?? '', { deletedAt: kit.clock.now() });
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code })).ok).toBe(false);
  });

  it('a recovery code signs a confirmed user in with amr recovery', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    await kit.auth.recover.execute({ email: 'ana@example.com' });
    const token = kit.mailer.lastCode('ana@example.com') ?? '';
    const result = await kit.auth.verifyOtp.execute({ type: 'recovery', email: 'ana@example.com', token });
    expect(result.ok && kit.signer.claimsOf(result.value.accessToken)?.amr[0]?.method).toBe('recovery');
  });
});
