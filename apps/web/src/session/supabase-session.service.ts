import type { GoTrueClient } from '@supabase/auth-js';
import { err, ok, type Result } from '@kiln/domain';
import { action, makeObservable, observable, observableRef, runInAction } from 'mobx';
import type { AuthFailure, SessionService, SessionStatus, SessionUser } from '../app/ports';
import { sessionStateFor, toAuthFailure, toSessionUser } from './session-mapping';

/** The part of auth-js's AuthClient the session uses (tests pass a fake). */
export type AuthGateway = Pick<
  GoTrueClient,
  | 'onAuthStateChange'
  | 'getSession'
  | 'signUp'
  | 'verifyOtp'
  | 'resend'
  | 'signInWithPassword'
  | 'resetPasswordForEmail'
  | 'updateUser'
  | 'signOut'
>;

type AuthReply = { readonly error: unknown };

/**
 * SessionService on @supabase/auth-js against Kiln's GoTrue-compatible /auth/v1. auth-js keeps
 * the session (localStorage), refreshes it while the tab is visible and syncs tabs over a
 * BroadcastChannel; every auth event lands here and updates the observable `status`/`user`.
 */
export class SupabaseSessionService implements SessionService {
  status: SessionStatus = 'loading';
  user: SessionUser | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly auth: AuthGateway) {
    makeObservable(this, { status: observable, user: observableRef, apply: action });
    // auth-js calls this with INITIAL_SESSION once it has read storage, then on every change.
    // The callback must stay synchronous: awaiting auth calls inside it deadlocks auth-js.
    const { data } = auth.onAuthStateChange((event, session) => this.apply(sessionStateFor(event, session)));
    this.unsubscribe = () => data.subscription.unsubscribe();
  }

  apply(state: { status: SessionStatus; user: SessionUser | null }): void {
    this.status = state.status;
    this.user = state.user;
  }

  async accessToken(): Promise<string | null> {
    const { data } = await this.auth.getSession();
    return data.session?.access_token ?? null;
  }

  async signUp(input: { email: string; password: string; fullName?: string }): Promise<Result<void, AuthFailure>> {
    const data: Record<string, unknown> = { is_signup: true };
    const fullName = input.fullName?.trim();
    if (fullName) data['full_name'] = fullName;
    return this.outcome(await this.auth.signUp({ email: input.email.trim(), password: input.password, options: { data } }));
  }

  async verifyCode(input: { email: string; code: string; type: 'signup' | 'email' | 'recovery' }): Promise<Result<void, AuthFailure>> {
    const reply = await this.auth.verifyOtp({ email: input.email.trim(), token: input.code, type: input.type });
    if (reply.error) return err(toAuthFailure(reply.error));
    const user = reply.data.user ? toSessionUser(reply.data.user) : null;
    if (user?.isSignup) {
      // SPEC §3: is_signup marks an account until its email is verified.
      const cleared = await this.auth.updateUser({ data: { is_signup: false } });
      if (cleared.error) console.warn('Could not clear is_signup after verification', cleared.error);
    }
    return ok(undefined);
  }

  async resendCode(email: string): Promise<Result<void, AuthFailure>> {
    return this.outcome(await this.auth.resend({ type: 'signup', email: email.trim() }));
  }

  async signIn(input: { email: string; password: string }): Promise<Result<void, AuthFailure>> {
    return this.outcome(await this.auth.signInWithPassword({ email: input.email.trim(), password: input.password }));
  }

  async requestPasswordReset(email: string): Promise<Result<void, AuthFailure>> {
    return this.outcome(await this.auth.resetPasswordForEmail(email.trim()));
  }

  async updatePassword(password: string): Promise<Result<void, AuthFailure>> {
    return this.outcome(await this.auth.updateUser({ password }));
  }

  async signOut(): Promise<void> {
    const { error } = await this.auth.signOut();
    // A failed server call still ends the local session (auth-js removes it); only report.
    if (error) console.warn('Sign-out did not reach the server', error);
    runInAction(() => this.apply({ status: 'signed-out', user: null }));
  }

  dispose(): void {
    this.unsubscribe();
  }

  private outcome(reply: AuthReply): Result<void, AuthFailure> {
    return reply.error ? err(toAuthFailure(reply.error)) : ok(undefined);
  }
}
