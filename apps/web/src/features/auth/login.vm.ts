import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, type Navigator, type SessionService, TYPES } from '../../app/ports';
import { authErrorMessage, retryAfterSeconds } from './auth-messages';
import { CodeCooldowns } from './code-cooldown';
import { EMAIL_INVALID, isValidEmail, verifyPath } from './credentials';
import { PostSignInFlow } from './post-sign-in.flow';

/**
 * /login: email and password. Success ensures the profile and returns to the remembered path;
 * an unconfirmed email gets a fresh code and goes to /verify.
 */
@injectable()
export class LoginVm {
  email = '';
  password = '';
  submitted = false;
  submitting = false;
  error: string | null = null;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
    @inject(CodeCooldowns) private readonly cooldowns: CodeCooldowns,
  ) {
    makeAutoObservable<LoginVm, 'session' | 'navigator' | 'analytics' | 'flow' | 'cooldowns'>(
      this,
      { session: false, navigator: false, analytics: false, flow: false, cooldowns: false },
      { autoBind: true },
    );
  }

  /** Pre-fills the address (e.g. /login?email=… from another screen). */
  init(email: string | null): void {
    if (email && this.email === '') this.email = email;
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
    this.analytics.track('Login', { method: 'password' });
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
