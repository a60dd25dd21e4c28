import { describe, expect, it } from '@jest/globals';
import { createAuthTestKit, signUpConfirmed } from '../testing/auth/auth-test-kit.js';

describe('SignUp', () => {
  it('creates an unconfirmed account, mails a 6-digit code and starts no session', async () => {
    const kit = createAuthTestKit();
    const result = await kit.auth.signUp.execute({ email: ' Ana@Example.com ', password: 'correct horse battery', data: { is_signup: true } });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.obfuscated).toBe(false);
    const user = result.value.user;
    expect(user).toMatchObject({ email: 'ana@example.com', emailConfirmedAt: null, confirmationSentAt: kit.clock.now() });
    expect(user.userMetadata['is_signup']).toBe(true);
    expect(user.passwordHash).not.toContain('correct horse');
    expect(kit.users.all()).toHaveLength(1);
    expect(kit.sessions.all()).toHaveLength(0);

    const mails = kit.mailer.to('ana@example.com');
    expect(mails).toHaveLength(1);
    const code = kit.mailer.lastCode('ana@example.com');
    expect(code).toMatch(/^\d{6}$/);
    expect(mails[0]?.subject).toContain(code);
  });

  it('stores the code only as a digest', async () => {
    const kit = createAuthTestKit();
    await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' });
    const code = kit.mailer.lastCode('ana@example.com') ?? '';
    const stored = kit.codes.all();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(stored[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a weak password with reasons before looking anything up', async () => {
    const kit = createAuthTestKit();
    const result = await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'short' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'AUTH.WEAK_PASSWORD', message: 'Password should be at least 8 characters.', reasons: ['length'] },
    });
    expect(kit.users.all()).toHaveLength(0);
    expect(kit.mailer.sent).toHaveLength(0);
  });

  it('refuses an invalid address and non-object metadata', async () => {
    const kit = createAuthTestKit();
    expect(await kit.auth.signUp.execute({ email: 'not-an-email', password: 'correct horse battery' })).toMatchObject({
      ok: false,
      error: { code: 'AUTH.VALIDATION_FAILED' },
    });
    expect(await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery', data: [1, 2] })).toMatchObject({
      ok: false,
      error: { code: 'AUTH.VALIDATION_FAILED' },
    });
  });

  it('answers a confirmed address with an obfuscated user: random id, nothing mailed, nothing changed', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    const before = JSON.stringify(kit.users.all());
    kit.mailer.clear();
    kit.clock.advance(61_000);
    const hashesBefore = kit.passwords.hashes;

    const again = await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'another password!' });

    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(again.value.obfuscated).toBe(true);
    const real = kit.users.all()[0];
    expect(again.value.user.id).not.toBe(real?.id);
    expect(again.value.user).toMatchObject({ email: 'ana@example.com', emailConfirmedAt: null, confirmationSentAt: kit.clock.now() });
    expect(kit.mailer.sent).toHaveLength(0);
    expect(JSON.stringify(kit.users.all())).toBe(before);
    expect(kit.passwords.hashes).toBe(hashesBefore + 1); // the same work a real sign-up does
  });

  it('answers a confirmed address with the same cooldown as a new one', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    kit.clock.advance(61_000);
    expect((await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'another password!' })).ok).toBe(true);
    const second = await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'another password!' });
    expect(!second.ok && second.error.code).toBe('AUTH.MAIL_RATE_LIMITED');

    await kit.auth.signUp.execute({ email: 'new@example.com', password: 'another password!' });
    const newSecond = await kit.auth.signUp.execute({ email: 'new@example.com', password: 'another password!' });
    expect(!newSecond.ok && newSecond.error.code).toBe('AUTH.MAIL_RATE_LIMITED');
  });

  it('signing up again while unconfirmed: 429 within a minute, then a new code and the new password', async () => {
    const kit = createAuthTestKit();
    await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'first password' });
    const firstCode = kit.mailer.lastCode('ana@example.com');

    kit.clock.advance(30_000);
    const early = await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'second password' });
    expect(early).toEqual({
      ok: false,
      error: { code: 'AUTH.MAIL_RATE_LIMITED', message: 'For security purposes, you can only request this after 30 seconds.', retryAfterSeconds: 30 },
    });

    kit.clock.advance(30_000);
    const later = await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'second password' });
    expect(later.ok).toBe(true);
    expect(kit.users.all()).toHaveLength(1);
    const secondCode = kit.mailer.lastCode('ana@example.com') ?? '';
    expect(kit.mailer.to('ana@example.com')).toHaveLength(2);

    // the first code was replaced
    if (firstCode !== secondCode) {
      const stale = await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: firstCode ?? '' });
      expect(!stale.ok && stale.error.code).toBe('AUTH.OTP_EXPIRED');
    }
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: secondCode })).ok).toBe(true);
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'first password' })).ok).toBe(false);
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'second password' })).ok).toBe(true);
  });

  it('withdraws the code when the mail cannot be sent, so the person can retry at once', async () => {
    const kit = createAuthTestKit();
    kit.mailer.failNext = true;
    await expect(kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' })).rejects.toThrow(/refused/);
    expect(kit.codes.all()).toHaveLength(0);
    expect((await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' })).ok).toBe(true);
    expect(kit.mailer.lastCode('ana@example.com')).toMatch(/^\d{6}$/);
  });

  it('concurrent sign-ups of one new address make one account', async () => {
    const kit = createAuthTestKit({ pause: () => Promise.resolve().then(() => undefined) });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => kit.auth.signUp.execute({ email: 'race@example.com', password: 'correct horse battery' })),
    );
    expect(kit.users.all()).toHaveLength(1);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.error.code).toBe('AUTH.MAIL_RATE_LIMITED');
    expect(kit.mailer.sent).toHaveLength(1);
  });
});
