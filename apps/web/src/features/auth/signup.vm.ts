import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Analytics, type Navigator, type SessionService, TYPES } from '../../app/ports';
import { authErrorMessage } from './auth-messages';
import { CodeCooldowns } from './code-cooldown';
import { EMAIL_INVALID, isValidEmail, isValidPassword, PASSWORD_INVALID, passwordRules, verifyPath } from './credentials';

/** /signup: name, email and password; on success a code is mailed and /verify opens. */
@injectable()
export class SignupVm {
  name = '';
  email = '';
  password = '';
  submitted = false;
  submitting = false;
  error: string | null = null;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Analytics) private readonly analytics: Analytics,
    @inject(CodeCooldowns) private readonly cooldowns: CodeCooldowns,
  ) {
    makeAutoObservable<SignupVm, 'session' | 'navigator' | 'analytics' | 'cooldowns'>(
      this,
      { session: false, navigator: false, analytics: false, cooldowns: false },
      { autoBind: true },
    );
  }

  get passwordRules() {
    return passwordRules(this.password);
  }

  /** Shown once the visitor has tried to submit, or as soon as the field is fixed. */
  get emailError(): string | null {
    return this.submitted && !isValidEmail(this.email) ? EMAIL_INVALID : null;
  }

  get passwordError(): string | null {
    return this.submitted && !isValidPassword(this.password) ? PASSWORD_INVALID : null;
  }

  get canSubmit(): boolean {
    return !this.submitting;
  }

  setName(value: string): void {
    this.name = value;
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
    if (this.submitting || !isValidEmail(this.email) || !isValidPassword(this.password)) return;
    this.submitting = true;
    const email = this.email.trim();
    const result = await this.session.signUp({ email, password: this.password, fullName: this.name });
    runInAction(() => {
      this.submitting = false;
      if (!result.ok) {
        this.error = authErrorMessage(result.error);
        return;
      }
      this.cooldowns.markSent(email);
      this.analytics.track('Signup', { method: 'email' });
      this.navigator.navigate(verifyPath(email));
    });
  }
}
