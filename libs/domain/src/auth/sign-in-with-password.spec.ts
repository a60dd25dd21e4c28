import { describe, expect, it } from '@jest/globals';
import { createAuthTestKit, signIn, signUpConfirmed } from '../testing/auth/auth-test-kit.js';
import { authSettings } from './auth-settings.js';
import { createAuthUseCases } from './auth-use-cases.js';

describe('SignInWithPassword', () => {
  it('starts a session for the right password of a confirmed account', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    kit.clock.advance(5_000);
    const session = await signIn(kit, 'ANA@example.com');
    expect(session.user.email).toBe('ana@example.com');
    expect(session.user.lastSignInAt).toEqual(kit.clock.now());
    expect(session.weakPassword).toBeNull();
    expect(kit.signer.claimsOf(session.accessToken)?.amr).toEqual([{ method: 'password', timestamp: Math.floor(kit.clock.now().getTime() / 1000) }]);
    expect(kit.sessions.all()).toHaveLength(2); // the confirmation's and this one
  });

  it('answers unknown address and wrong password identically, after the same work', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    const before = kit.passwords.verifications;
    const wrongPassword = await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'not the password' });
    const afterWrong = kit.passwords.verifications;
    const unknown = await kit.auth.signInWithPassword.execute({ email: 'nobody@example.com', password: 'not the password' });
    const malformed = await kit.auth.signInWithPassword.execute({ email: 'not an address', password: 'x' });

    const expected = { ok: false, error: { code: 'AUTH.INVALID_CREDENTIALS', message: 'Invalid login credentials' } };
    expect(wrongPassword).toEqual(expected);
    expect(unknown).toEqual(expected);
    expect(malformed).toEqual(expected);
    expect(afterWrong - before).toBe(1);
    expect(kit.passwords.verifications - afterWrong).toBe(2);
  });

  it('says email_not_confirmed only after the password was right', async () => {
    const kit = createAuthTestKit();
    await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' });
    expect(await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'wrong password' })).toMatchObject({
      ok: false,
      error: { code: 'AUTH.INVALID_CREDENTIALS' },
    });
    expect(await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'correct horse battery' })).toEqual({
      ok: false,
      error: { code: 'AUTH.EMAIL_NOT_CONFIRMED', message: 'Email not confirmed' },
    });
  });

  it('refuses a soft-deleted account like an unknown one', async () => {
    const kit = createAuthTestKit();
    const session = await signUpConfirmed(kit, 'ana@example.com');
    await kit.auth.softDeleteAccount.execute({ userId: session.user.id });
    expect(await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'correct horse battery' })).toMatchObject({
      ok: false,
      error: { code: 'AUTH.INVALID_CREDENTIALS' },
    });
  });

  it('refuses an account made by a one-time code (no password) like a wrong password', async () => {
    const kit = createAuthTestKit();
    await kit.auth.requestOtp.execute({ email: 'ana@example.com', createUser: true });
    await kit.auth.verifyOtp.execute({ type: 'email', email: 'ana@example.com', token: kit.mailer.lastCode('ana@example.com') ?? '' });
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: '' })).ok).toBe(false);
  });

  it('hints weak_password when a password set under an older policy is used', async () => {
    const kit = createAuthTestKit({ settings: { passwordPolicy: { minLength: 6, requiredCharacterSets: [] } } });
    await signUpConfirmed(kit, 'ana@example.com', 'sixsix');
    // the same stores under today's policy (8 characters)
    const auth = createAuthUseCases(kit.ports, authSettings());
    const result = await auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'sixsix' });
    expect(result.ok && result.value.weakPassword).toEqual({ reasons: ['length'], message: 'Password should be at least 8 characters.' });
  });
});
