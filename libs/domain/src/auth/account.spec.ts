import { describe, expect, it } from '@jest/globals';
import { createAuthTestKit, signIn, signUpConfirmed } from '../testing/auth/auth-test-kit.js';

describe('Recover', () => {
  it('mails a reset code to a known address and records recovery_sent_at', async () => {
    const kit = createAuthTestKit();
    const session = await signUpConfirmed(kit, 'ana@example.com');
    kit.mailer.clear();
    expect(await kit.auth.recover.execute({ email: 'ana@example.com' })).toEqual({ ok: true, value: undefined });
    expect(kit.mailer.lastCode('ana@example.com')).toMatch(/^\d{6}$/);
    expect((await kit.users.findById(session.user.id))?.recoverySentAt).toEqual(kit.clock.now());
  });

  it('answers an unknown address the same — 200, then 429 within the cooldown — and mails nothing', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    kit.mailer.clear();
    const known = [await kit.auth.recover.execute({ email: 'ana@example.com' }), await kit.auth.recover.execute({ email: 'ana@example.com' })];
    const unknown = [await kit.auth.recover.execute({ email: 'who@example.com' }), await kit.auth.recover.execute({ email: 'who@example.com' })];
    expect(unknown).toEqual(known);
    expect(known[0]).toEqual({ ok: true, value: undefined });
    expect(known[1]).toMatchObject({ ok: false, error: { code: 'AUTH.MAIL_RATE_LIMITED', retryAfterSeconds: 60 } });
    expect(kit.mailer.to('who@example.com')).toHaveLength(0);
    expect(kit.users.all()).toHaveLength(1);
  });

  it('a recovery session can set a new password; the old one stops working', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    await kit.auth.recover.execute({ email: 'ana@example.com' });
    const verified = await kit.auth.verifyOtp.execute({ type: 'recovery', email: 'ana@example.com', token: kit.mailer.lastCode('ana@example.com') ?? '' });
    if (!verified.ok) throw new Error('recovery verification failed');
    const updated = await kit.auth.updateUser.execute({ userId: verified.value.user.id, sessionId: verified.value.sessionId, password: 'a brand new password' });
    expect(updated.ok).toBe(true);
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'correct horse battery' })).ok).toBe(false);
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'a brand new password' })).ok).toBe(true);
  });
});

describe('RequestOtp', () => {
  it('mails a sign-in code to a confirmed account; type email or magiclink verifies it', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    await kit.auth.requestOtp.execute({ email: 'ana@example.com', createUser: true });
    const code = kit.mailer.lastCode('ana@example.com') ?? '';
    expect(kit.mailer.to('ana@example.com').at(-1)?.subject).toContain('sign-in code');
    const result = await kit.auth.verifyOtp.execute({ type: 'email', email: 'ana@example.com', token: code });
    expect(result.ok && kit.signer.claimsOf(result.value.accessToken)?.amr[0]?.method).toBe('magiclink');
  });

  it('creates a password-less account for an unknown address when asked, and confirms it by the code', async () => {
    const kit = createAuthTestKit();
    await kit.auth.requestOtp.execute({ email: 'new@example.com', createUser: true, data: { full_name: 'New' } });
    const [user] = kit.users.all();
    expect(user).toMatchObject({ email: 'new@example.com', passwordHash: null, emailConfirmedAt: null });
    expect(user?.userMetadata['full_name']).toBe('New');
    const result = await kit.auth.verifyOtp.execute({ type: 'email', email: 'new@example.com', token: kit.mailer.lastCode('new@example.com') ?? '' });
    expect(result.ok && result.value.user.emailConfirmedAt).toEqual(kit.clock.now());
  });

  it('without createUser, an unknown address answers 200 and gets nothing (GoTrue would say otp_disabled)', async () => {
    const kit = createAuthTestKit();
    expect(await kit.auth.requestOtp.execute({ email: 'new@example.com', createUser: false })).toEqual({ ok: true, value: undefined });
    expect(kit.users.all()).toHaveLength(0);
    expect(kit.mailer.sent).toHaveLength(0);
    expect(await kit.auth.requestOtp.execute({ email: 'new@example.com', createUser: false })).toMatchObject({
      ok: false,
      error: { code: 'AUTH.MAIL_RATE_LIMITED' },
    });
  });
});

describe('ResendCode', () => {
  it('resends a confirmation code after the cooldown; 429 within it', async () => {
    const kit = createAuthTestKit();
    await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' });
    kit.clock.advance(59_000);
    expect(await kit.auth.resendCode.execute({ type: 'signup', email: 'ana@example.com' })).toEqual({
      ok: false,
      error: { code: 'AUTH.MAIL_RATE_LIMITED', message: 'For security purposes, you can only request this after 1 seconds.', retryAfterSeconds: 1 },
    });
    kit.clock.advance(1_000);
    expect((await kit.auth.resendCode.execute({ type: 'signup', email: 'ana@example.com' })).ok).toBe(true);
    expect(kit.mailer.to('ana@example.com')).toHaveLength(2);
    const code = kit.mailer.lastCode('ana@example.com') ?? '';
    expect((await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: code })).ok).toBe(true);
  });

  it('mails nothing for a confirmed or unknown address, answering the same', async () => {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    kit.mailer.clear();
    kit.clock.advance(60_000);
    expect(await kit.auth.resendCode.execute({ type: 'signup', email: 'ana@example.com' })).toEqual({ ok: true, value: undefined });
    expect(await kit.auth.resendCode.execute({ type: 'signup', email: 'who@example.com' })).toEqual({ ok: true, value: undefined });
    expect(kit.mailer.sent).toHaveLength(0);
  });
});

describe('UpdateUser', () => {
  async function signedIn() {
    const kit = createAuthTestKit();
    await signUpConfirmed(kit, 'ana@example.com');
    const session = await signIn(kit, 'ana@example.com');
    return { kit, session, input: { userId: session.user.id, sessionId: session.sessionId } };
  }

  it('merges data into user_metadata', async () => {
    const { kit, input } = await signedIn();
    const result = await kit.auth.updateUser.execute({ ...input, data: { full_name: 'Ana López', email_verified: null } });
    expect(result.ok && result.value.userMetadata).toMatchObject({ full_name: 'Ana López', email: 'ana@example.com' });
    expect(result.ok && 'email_verified' in result.value.userMetadata).toBe(false);
  });

  it('changes the password and ends every other session, keeping this one', async () => {
    const { kit, session, input } = await signedIn();
    const other = await signIn(kit, 'ana@example.com');
    expect((await kit.auth.updateUser.execute({ ...input, password: 'a brand new password' })).ok).toBe(true);
    expect((await kit.auth.verifier.verify(session.accessToken)).ok).toBe(true);
    expect(await kit.auth.verifier.verify(other.accessToken)).toMatchObject({ ok: false, error: { code: 'AUTH.SESSION_ENDED' } });
  });

  it('refuses a weak password, and the same password again', async () => {
    const { kit, input } = await signedIn();
    expect(await kit.auth.updateUser.execute({ ...input, password: 'short' })).toMatchObject({ ok: false, error: { code: 'AUTH.WEAK_PASSWORD', reasons: ['length'] } });
    expect(await kit.auth.updateUser.execute({ ...input, password: 'correct horse battery' })).toEqual({
      ok: false,
      error: { code: 'AUTH.SAME_PASSWORD', message: 'New password should be different from the old password.' },
    });
  });

  it('an email change waits for the code sent to the new address; the old one gets a notice', async () => {
    const { kit, input } = await signedIn();
    const pending = await kit.auth.updateUser.execute({ ...input, email: 'Ana.New@example.com' });
    expect(pending.ok && pending.value).toMatchObject({ email: 'ana@example.com', emailChange: 'ana.new@example.com', emailChangeSentAt: kit.clock.now() });
    expect(kit.mailer.to('ana@example.com').at(-1)?.subject).toContain('being changed');
    const code = kit.mailer.lastCode('ana.new@example.com') ?? '';
    const verified = await kit.auth.verifyOtp.execute({ type: 'email_change', email: 'ana.new@example.com', token: code });
    expect(verified.ok && verified.value.user).toMatchObject({ email: 'ana.new@example.com', emailChange: null });
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana.new@example.com', password: 'correct horse battery' })).ok).toBe(true);
    expect((await kit.auth.signInWithPassword.execute({ email: 'ana@example.com', password: 'correct horse battery' })).ok).toBe(false);
  });

  it('refuses an address another account holds (email_exists), and changes nothing', async () => {
    const { kit, input } = await signedIn();
    await signUpConfirmed(kit, 'ben@example.com');
    expect(await kit.auth.updateUser.execute({ ...input, email: 'ben@example.com', data: { a: 1 } })).toMatchObject({ ok: false, error: { code: 'AUTH.EMAIL_EXISTS' } });
    expect((await kit.users.findById(input.userId))?.userMetadata['a']).toBeUndefined();
  });

  it('an email-change code is void once the address was taken meanwhile', async () => {
    const { kit, input } = await signedIn();
    await kit.auth.updateUser.execute({ ...input, email: 'taken@example.com' });
    const code = kit.mailer.lastCode('taken@example.com') ?? '';
    await signUpConfirmed(kit, 'taken@example.com');
    expect(await kit.auth.verifyOtp.execute({ type: 'email_change', email: 'taken@example.com', token: code })).toMatchObject({
      ok: false,
      error: { code: 'AUTH.EMAIL_EXISTS' },
    });
  });

  it('answers user_not_found for a deleted account', async () => {
    const { kit, input } = await signedIn();
    await kit.auth.softDeleteAccount.execute({ userId: input.userId });
    expect(await kit.auth.updateUser.execute({ ...input, data: {} })).toMatchObject({ ok: false, error: { code: 'AUTH.USER_NOT_FOUND' } });
  });
});

describe('SoftDeleteAccount', () => {
  it('marks the account deleted, ends every session, frees the address', async () => {
    const kit = createAuthTestKit();
    const first = await signUpConfirmed(kit, 'ana@example.com');
    const second = await signIn(kit, 'ana@example.com');
    kit.clock.advance(1000);
    expect(await kit.auth.softDeleteAccount.execute({ userId: first.user.id })).toEqual({ ok: true, value: { deletedAt: kit.clock.now() } });
    expect((await kit.users.findById(first.user.id))?.deletedAt).toEqual(kit.clock.now());
    for (const s of [first, second]) expect((await kit.auth.verifier.verify(s.accessToken)).ok).toBe(false);
    expect(kit.sessions.all().every((s) => s.endReason === 'account_deleted')).toBe(true);
    expect(await kit.auth.softDeleteAccount.execute({ userId: first.user.id })).toMatchObject({ ok: false, error: { code: 'AUTH.USER_NOT_FOUND' } });
    // the address can be signed up again, as a new account
    kit.clock.advance(60_000);
    const again = await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' });
    expect(again.ok && again.value.obfuscated).toBe(false);
    expect(again.ok && again.value.user.id).not.toBe(first.user.id);
  });
});

describe('ThrottleAuthRequest', () => {
  it('allows a burst of 30 per action and client, then 429 with a retry time; refills over time', async () => {
    const kit = createAuthTestKit();
    const take = () => kit.auth.throttle.execute({ action: 'signup', clientKey: '203.0.113.9' });
    for (let i = 0; i < 30; i += 1) expect((await take()).ok).toBe(true);
    expect(await take()).toEqual({ ok: false, error: { code: 'AUTH.REQUEST_RATE_LIMITED', message: 'Request rate limit reached', retryAfterSeconds: 10 } });
    expect((await kit.auth.throttle.execute({ action: 'signup', clientKey: '198.51.100.1' })).ok).toBe(true);
    expect((await kit.auth.throttle.execute({ action: 'verify', clientKey: '203.0.113.9' })).ok).toBe(true);
    kit.clock.advance(10_000);
    expect((await take()).ok).toBe(true);
    expect((await take()).ok).toBe(false);
  });
});
