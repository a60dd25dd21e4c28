import type { AuthChangeEvent, Session, User } from '@supabase/auth-js';
import type { AuthFailure, SessionStatus, SessionUser } from '../app/ports';

/** auth-js user → the app's SessionUser (SPEC §3: user_metadata.is_signup). */
export function toSessionUser(user: Pick<User, 'id' | 'email' | 'user_metadata'>): SessionUser {
  const metadata: Record<string, unknown> = { ...(user.user_metadata ?? {}) };
  return Object.freeze({
    id: user.id,
    email: user.email ?? '',
    isSignup: metadata['is_signup'] === true,
    metadata: Object.freeze(metadata),
  });
}

export interface SessionState {
  readonly status: SessionStatus;
  readonly user: SessionUser | null;
}

/**
 * What an auth event means for the app (SPEC §4 auth events). Every event carries the current
 * session (or null): INITIAL_SESSION ends 'loading'; SIGNED_IN, TOKEN_REFRESHED, USER_UPDATED,
 * PASSWORD_RECOVERY and MFA_CHALLENGE_VERIFIED carry a session; SIGNED_OUT carries none.
 */
export function sessionStateFor(event: AuthChangeEvent, session: Pick<Session, 'user' | 'access_token'> | null): SessionState {
  if (event === 'SIGNED_OUT' || session === null) return { status: 'signed-out', user: null };
  return { status: owesSecondFactor(session) ? 'second-factor' : 'signed-in', user: toSessionUser(session.user) };
}

/** The `aal` claim of an access token (read, not verified: the server verifies), or null. */
export function assuranceLevelOf(accessToken: string): string | null {
  try {
    const payload = accessToken.split('.')[1] ?? '';
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const aal = (JSON.parse(json) as { aal?: unknown }).aal;
    return typeof aal === 'string' ? aal : null;
  } catch {
    return null;
  }
}

/**
 * auth-js's getAuthenticatorAssuranceLevel, synchronously: the session is aal1 while the user
 * has a verified factor, so aal2 is next — the code is still owed.
 */
export function owesSecondFactor(session: Pick<Session, 'user' | 'access_token'>): boolean {
  const verified = (session.user.factors ?? []).some((factor) => factor.status === 'verified');
  return verified && assuranceLevelOf(session.access_token) !== 'aal2';
}

/** auth-js errors (AuthApiError, AuthWeakPasswordError, AuthRetryableFetchError…) → AuthFailure. */
export function toAuthFailure(error: unknown): AuthFailure {
  if (typeof error !== 'object' || error === null) return { code: 'unexpected_failure', message: String(error) };
  const e = error as { code?: unknown; name?: unknown; message?: unknown; status?: unknown };
  const message = typeof e.message === 'string' ? e.message : 'Unexpected error';
  if (typeof e.code === 'string' && e.code !== '') return { code: e.code, message };
  if (e.name === 'AuthWeakPasswordError') return { code: 'weak_password', message };
  if (e.name === 'AuthRetryableFetchError' || e.name === 'TypeError') return { code: 'network_failure', message };
  if (e.name === 'AuthSessionMissingError') return { code: 'session_missing', message };
  return { code: 'unexpected_failure', message };
}
