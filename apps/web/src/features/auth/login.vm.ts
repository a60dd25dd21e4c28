import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { TOTP_DIGITS } from '@kiln/domain';
import { type Analytics, type Navigator, type SessionService, type TwoFactorService, TYPES } from '../../app/ports';
import { authErrorMessage, retryAfterSeconds } from './auth-messages';
import { CodeCooldowns } from './code-cooldown';
import { EMAIL_INVALID, isValidEmail, verifyPath } from './credentials';
import { PostSignInFlow } from './post-sign-in.flow';
import { extractCode } from './verify.vm';

/**
 * /login: email and password. Success ensures the profile and returns to the remembered path;
 * an unconfirmed email gets a fresh code and goes to /verify. An account with an authenticator
 * app is not in yet after the password: the screen asks for the app's code (step 'code'), and
 * only an accepted code finishes the sign-in.
 */
@injectable()
export class LoginVm {
  email = '';
  password = '';
  submitted = false;
  submitting = false;
  error: string | null = null;
  step: 'password' | 'code' = 'password';
  code = '';

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
    @inject(CodeCooldowns) private readonly cooldowns: CodeCooldowns,
    @inject(TYPES.TwoFactor) private readonly twoFactor: TwoFactorService,
  ) {
    makeAutoObservable<LoginVm, 'session' | 'navigator' | 'analytics' | 'flow' | 'cooldowns' | 'twoFactor'>(
      this,
      { session: false, navigator: false, analytics: false, flow: false, cooldowns: false, twoFactor: false },
      { autoBind: true },
    );
  }

  /** Pre-fills the address (e.g. /login?email=… from another screen). */
  init(email: string | null): void {
    if (email && this.email === '') this.email = email;
    // Back on /login (a reload, or sent here by the guard) with the password done: ask for the code.
    if (this.session.status === 'second-factor') this.step = 'code';
  }

  /** The code field drawn as six boxes. */
  get codeDigits(): readonly string[] {
    return Array.from({ length: TOTP_DIGITS }, (_, i) => this.code[i] ?? '');
  }

  setCode(value: string): void {
    this.code = extractCode(value);
    this.error = null;
  }

  get emailError(): string | null {
    return this.submitted && !isValidEmail(this.email) ? EMAIL_INVALID : null;
  }

  get passwordError(): string | null {
    return this.submitted && this.password === '' ? 'Enter your password.' : null;
  }

  /** /reset-password, carrying the address typed so far. */
  get resetPasswordHref(): string {
    const email = this.email.trim();
    return email === '' ? '/reset-password' : `/reset-password?${new URLSearchParams({ email }).toString()}`;
  }

  setEmail(value: string): void {
    this.email = value;
    this.error = null;
  }

  setPassword(value: string): void {
    this.password = value;
    this.error = null;
  }

  async submit(): Promise<void> {
    this.submitted = true;
    this.error = null;
    if (this.submitting || !isValidEmail(this.email) || this.password === '') return;
    this.submitting = true;
    const email = this.email.trim();
    this.flow.begin();
    const result = await this.session.signIn({ email, password: this.password });
    if (!result.ok) {
      if (result.error.code === 'email_not_confirmed') await this.sendNewCode(email);
      runInAction(() => {
        this.submitting = false;
        this.flow.end();
        if (result.error.code === 'email_not_confirmed') this.navigator.navigate(verifyPath(email));
        else this.error = authErrorMessage(result.error);
      });
      return;
    }
    if (this.session.status === 'second-factor') {
      runInAction(() => {
        this.submitting = false;
        this.step = 'code';
        this.flow.end();
      });
      return;
    }
    this.analytics.track('Login', { method: 'password' });
    await this.finish();
  }

  /** The authenticator app's code, after the password. */
  async submitCode(): Promise<void> {
    if (this.submitting) return;
    if (this.code.length !== TOTP_DIGITS) {
      this.error = `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`;
      return;
    }
    this.submitting = true;
    this.error = null;
    this.flow.begin();
    const result = await this.twoFactor.verifySignIn(this.code);
    if (!result.ok) {
      runInAction(() => {
        this.submitting = false;
        this.flow.end();
        this.code = '';
        this.error = authErrorMessage(result.error);
      });
      return;
    }
    this.analytics.track('Login', { method: 'password+totp' });
    await this.finish();
  }

  /** Leaves the code step: the half-done session ends and the password form comes back. */
  async useAnotherAccount(): Promise<void> {
    await this.session.signOut();
    runInAction(() => {
      this.step = 'password';
      this.code = '';
      this.password = '';
      this.error = null;
    });
  }

  private async finish(): Promise<void> {
    await this.flow.completeSignIn();
    // The flow stays "in progress" until this screen is left (dispose), so the entry guard
    // cannot send the now signed-in visitor to '/' before this navigation lands.
    runInAction(() => this.navigator.navigate(this.flow.takeReturnTo(), { replace: true }));
  }

  /** The view unmounted. */
  dispose(): void {
    if (this.submitting) this.submitting = false;
    this.flow.end();
  }

  private async sendNewCode(email: string): Promise<void> {
    const sent = await this.session.resendCode(email);
    runInAction(() => {
      if (sent.ok) this.cooldowns.markSent(email);
      else {
        const seconds = retryAfterSeconds(sent.error);
        if (seconds !== null) this.cooldowns.waitFor(email, seconds);
      }
    });
  }
}
