import { describe, expect, it } from '@jest/globals';
import type { AuthChangeEvent, Session } from '@supabase/auth-js';
import { autorun } from 'mobx';
import { assuranceLevelOf, sessionStateFor, toAuthFailure, toSessionUser } from './session-mapping';
import { type AuthGateway, SupabaseSessionService } from './supabase-session.service';

const user = (metadata: Record<string, unknown> = {}) => ({ id: 'u1', email: 'ada@example.com', user_metadata: metadata });
const session = (metadata: Record<string, unknown> = {}) => ({ access_token: 'at-1', user: user(metadata) }) as unknown as Session;

/** The auth-js methods the service calls, recorded; replies scripted. */
class FakeAuth {
  listener: ((event: AuthChangeEvent, s: Session | null) => void) | null = null;
  unsubscribed = false;
  current: Session | null = null;
  readonly calls: { method: string; args: unknown }[] = [];
  verifyReply: { data: { user: unknown; session: unknown }; error: unknown } = { data: { user: user({ is_signup: true }), session: session() }, error: null };
  errorOf: Record<string, unknown> = {};

  onAuthStateChange(callback: (event: AuthChangeEvent, s: Session | null) => void) {
    this.listener = callback;
    return { data: { subscription: { id: 's', callback, unsubscribe: () => (this.unsubscribed = true) } } };
  }
  emit(event: AuthChangeEvent, s: Session | null) {
    this.listener?.(event, s);
  }
  async getSession() {
    return { data: { session: this.current }, error: null };
  }
  private reply(method: string, args: unknown) {
    this.calls.push({ method, args });
    return { data: {}, error: this.errorOf[method] ?? null };
  }
  async signUp(args: unknown) {
    return this.reply('signUp', args);
  }
  async verifyOtp(args: unknown) {
    this.calls.push({ method: 'verifyOtp', args });
    return this.verifyReply;
  }
  async resend(args: unknown) {
    return this.reply('resend', args);
  }
  async signInWithPassword(args: unknown) {
    return this.reply('signInWithPassword', args);
  }
  async resetPasswordForEmail(args: unknown) {
    return this.reply('resetPasswordForEmail', args);
  }
  async updateUser(args: unknown) {
    return this.reply('updateUser', args);
  }
  async signOut() {
    return this.reply('signOut', null);
  }
  methods(): string[] {
    return this.calls.map((c) => c.method);
  }
}

function setup() {
  const auth = new FakeAuth();
  const service = new SupabaseSessionService(auth as unknown as AuthGateway);
  return { auth, service };
}

describe('session mapping', () => {
  it('maps an auth-js user; isSignup only when user_metadata.is_signup is exactly true', () => {
    expect(toSessionUser(user({ is_signup: true, full_name: 'Ada' }))).toEqual({
      id: 'u1',
      email: 'ada@example.com',
      isSignup: true,
      metadata: { is_signup: true, full_name: 'Ada' },
    });
    expect(toSessionUser(user({ is_signup: 'true' })).isSignup).toBe(false);
    expect(toSessionUser({ id: 'u2', email: undefined, user_metadata: undefined as never })).toMatchObject({ email: '', isSignup: false, metadata: {} });
  });

  it.each<[AuthChangeEvent, boolean]>([
    ['INITIAL_SESSION', true],
    ['SIGNED_IN', true],
    ['TOKEN_REFRESHED', true],
    ['USER_UPDATED', true],
    ['PASSWORD_RECOVERY', true],
    ['MFA_CHALLENGE_VERIFIED', true],
  ])('%s with a session → signed-in', (event) => {
    expect(sessionStateFor(event, session())).toMatchObject({ status: 'signed-in', user: { id: 'u1' } });
  });

  it('INITIAL_SESSION without a session and SIGNED_OUT → signed-out', () => {
    expect(sessionStateFor('INITIAL_SESSION', null)).toEqual({ status: 'signed-out', user: null });
    expect(sessionStateFor('SIGNED_OUT', session())).toEqual({ status: 'signed-out', user: null });
  });

  it('a password session (aal1) of a user with a verified factor owes the second factor; aal2, or no verified factor, is signed in', () => {
    const token = (claims: Record<string, unknown>) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
    const withFactors = (aal: string, status: 'verified' | 'unverified') =>
      ({ access_token: token({ aal }), user: { ...user(), factors: [{ id: 'f1', factor_type: 'totp', status }] } }) as unknown as Session;
    expect(sessionStateFor('SIGNED_IN', withFactors('aal1', 'verified')).status).toBe('second-factor');
    expect(sessionStateFor('MFA_CHALLENGE_VERIFIED', withFactors('aal2', 'verified')).status).toBe('signed-in');
    expect(sessionStateFor('SIGNED_IN', withFactors('aal1', 'unverified')).status).toBe('signed-in');
    expect(assuranceLevelOf(token({ aal: 'aal2', sub: 'ü' }))).toBe('aal2');
    expect(assuranceLevelOf('not-a-jwt')).toBeNull();
  });

  it('maps auth-js errors to codes', () => {
    expect(toAuthFailure({ name: 'AuthApiError', code: 'otp_expired', message: 'Token has expired or is invalid', status: 403 })).toEqual({
      code: 'otp_expired',
      message: 'Token has expired or is invalid',
    });
    expect(toAuthFailure({ name: 'AuthRetryableFetchError', message: 'Failed to fetch', status: 0 }).code).toBe('network_failure');
    expect(toAuthFailure({ name: 'AuthWeakPasswordError', message: 'weak' }).code).toBe('weak_password');
    expect(toAuthFailure('boom').code).toBe('unexpected_failure');
  });
});

describe('SupabaseSessionService', () => {
  it("is 'loading' until auth-js reports the initial session, then follows every event", () => {
    const { auth, service } = setup();
    const seen: string[] = [];
    const dispose = autorun(() => seen.push(service.status));

    auth.emit('INITIAL_SESSION', null);
    auth.emit('SIGNED_IN', session());
    auth.emit('USER_UPDATED', session({ is_signup: false }));
    auth.emit('SIGNED_OUT', null);
    dispose();

    expect(seen).toEqual(['loading', 'signed-out', 'signed-in', 'signed-out']);
  });

  it('exposes the user with isSignup', () => {
    const { auth, service } = setup();
    auth.emit('SIGNED_IN', session({ is_signup: true }));
    expect(service.user).toMatchObject({ email: 'ada@example.com', isSignup: true });
  });

  it('accessToken reads the current session', async () => {
    const { auth, service } = setup();
    await expect(service.accessToken()).resolves.toBeNull();
    auth.current = session();
    await expect(service.accessToken()).resolves.toBe('at-1');
  });

  it('signUp marks the account is_signup and carries the full name in data', async () => {
    const { auth, service } = setup();
    await expect(service.signUp({ email: ' ada@example.com ', password: 'pw12345678', fullName: ' Ada ' })).resolves.toEqual({ ok: true, value: undefined });
    expect(auth.calls).toEqual([
      { method: 'signUp', args: { email: 'ada@example.com', password: 'pw12345678', options: { data: { is_signup: true, full_name: 'Ada' } } } },
    ]);
  });

  it('verifyCode clears is_signup after a successful verification', async () => {
    const { auth, service } = setup();
    await expect(service.verifyCode({ email: 'ada@example.com', code: '123456', type: 'signup' })).resolves.toMatchObject({ ok: true });
    expect(auth.calls).toEqual([
      { method: 'verifyOtp', args: { email: 'ada@example.com', token: '123456', type: 'signup' } },
      { method: 'updateUser', args: { data: { is_signup: false } } },
    ]);
  });

  it('verifyCode leaves metadata alone for users not marked is_signup, and reports failures', async () => {
    const { auth, service } = setup();
    auth.verifyReply = { data: { user: user({}), session: session() }, error: null };
    await service.verifyCode({ email: 'ada@example.com', code: '123456', type: 'recovery' });
    expect(auth.methods()).toEqual(['verifyOtp']);

    auth.verifyReply = { data: { user: null, session: null }, error: { name: 'AuthApiError', code: 'otp_expired', message: 'Token has expired or is invalid' } };
    await expect(service.verifyCode({ email: 'ada@example.com', code: '000000', type: 'signup' })).resolves.toEqual({
      ok: false,
      error: { code: 'otp_expired', message: 'Token has expired or is invalid' },
    });
    expect(auth.methods()).toEqual(['verifyOtp', 'verifyOtp']);
  });

  it('resend, sign-in, reset and password change call the matching auth-js methods', async () => {
    const { auth, service } = setup();
    await service.resendCode('ada@example.com');
    await service.signIn({ email: 'ada@example.com', password: 'pw' });
    await service.requestPasswordReset('ada@example.com');
    await service.updatePassword('new password');
    expect(auth.calls).toEqual([
      { method: 'resend', args: { type: 'signup', email: 'ada@example.com' } },
      { method: 'signInWithPassword', args: { email: 'ada@example.com', password: 'pw' } },
      { method: 'resetPasswordForEmail', args: 'ada@example.com' },
      { method: 'updateUser', args: { password: 'new password' } },
    ]);
  });

  it('returns auth errors as failures', async () => {
    const { auth, service } = setup();
    auth.errorOf['signInWithPassword'] = { name: 'AuthApiError', code: 'invalid_credentials', message: 'Invalid login credentials', status: 400 };
    await expect(service.signIn({ email: 'ada@example.com', password: 'x' })).resolves.toEqual({
      ok: false,
      error: { code: 'invalid_credentials', message: 'Invalid login credentials' },
    });
  });

  it('signOut ends the local session and dispose unsubscribes', async () => {
    const { auth, service } = setup();
    auth.emit('SIGNED_IN', session());
    await service.signOut();
    expect(service.status).toBe('signed-out');
    service.dispose();
    expect(auth.unsubscribed).toBe(true);
  });
});
