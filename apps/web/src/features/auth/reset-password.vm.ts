import { CODE_DIGITS } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Navigator, type SessionService, type Timers, TYPES } from '../../app/ports';
import { authErrorMessage, retryAfterSeconds } from './auth-messages';
import { CodeCooldowns } from './code-cooldown';
import { TickingClock } from './ticking-clock';
import { EMAIL_INVALID, isValidEmail, isValidPassword, PASSWORD_INVALID, passwordRules } from './credentials';
import { PostSignInFlow } from './post-sign-in.flow';
import { extractCode } from './verify.vm';

export type ResetStep = 'request' | 'reset';

/**
 * /reset-password: ask for a code by email, then enter the code and a new password. The code
 * signs the visitor in (recovery), the password is changed, and they go to the remembered path.
 */
@injectable()
export class ResetPasswordVm {
  step: ResetStep = 'request';
  email = '';
  code = '';
  password = '';
  submitted = false;
  busy = false;
  error: string | null = null;
  notice: string | null = null;
  /** The code was accepted (a session exists): a retry only changes the password. */
  codeAccepted = false;
  private readonly clock: TickingClock;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Timers) timers: Timers,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
    @inject(CodeCooldowns) private readonly cooldowns: CodeCooldowns,
  ) {
    this.clock = new TickingClock(timers);
    makeAutoObservable<ResetPasswordVm, 'session' | 'navigator' | 'flow' | 'cooldowns' | 'clock'>(
      this,
      { session: false, navigator: false, flow: false, cooldowns: false, clock: false },
      { autoBind: true },
    );
  }

  init(email: string | null): void {
    if (email && this.email === '') this.email = email.trim();
  }

  start(): void {
    this.clock.start();
  }

  dispose(): void {
    this.clock.dispose();
  }

  /** The countdowns' clock, in ms since the epoch. */
  get now(): number {
    return this.clock.now;
  }

  get digits(): readonly string[] {
    return Array.from({ length: CODE_DIGITS }, (_, i) => this.code[i] ?? '');
  }

  get passwordRules() {
    return passwordRules(this.password);
  }

  get emailError(): string | null {
    return this.submitted && this.step === 'request' && !isValidEmail(this.email) ? EMAIL_INVALID : null;
  }

  get codeError(): string | null {
    return this.submitted && this.step === 'reset' && !this.codeAccepted && this.code.length !== CODE_DIGITS
      ? `Enter the ${CODE_DIGITS}-digit code from your email.`
      : null;
  }

  get passwordError(): string | null {
    return this.submitted && this.step === 'reset' && !isValidPassword(this.password) ? PASSWORD_INVALID : null;
  }

  get resendSecondsLeft(): number {
    return this.cooldowns.secondsLeft(this.email, this.now);
  }

  get resendLabel(): string {
    return this.resendSecondsLeft > 0 ? `Resend code in ${this.resendSecondsLeft}s` : 'Resend code';
  }

  get canResend(): boolean {
    return !this.busy && this.resendSecondsLeft === 0;
  }

  setEmail(value: string): void {
    this.email = value;
    this.error = null;
  }

  setCode(value: string): void {
    this.code = extractCode(value);
    this.error = null;
  }

  setPassword(value: string): void {
    this.password = value;
    this.error = null;
  }

  /** Back to step one (another address). */
  changeEmail(): void {
    this.step = 'request';
    this.submitted = false;
    this.code = '';
    this.error = null;
    this.notice = null;
  }

  /** Step one: mail a reset code (the answer never tells whether the address has an account). */
  async requestCode(): Promise<void> {
    this.submitted = true;
    this.error = null;
    if (this.busy || !isValidEmail(this.email)) return;
    await this.sendCode();
  }

  async resend(): Promise<void> {
    if (!this.canResend) return;
    await this.sendCode();
  }

  /** Step two: code + new password. */
  async submit(): Promise<void> {
    this.submitted = true;
    this.error = null;
    if (this.busy) return;
    if ((!this.codeAccepted && this.code.length !== CODE_DIGITS) || !isValidPassword(this.password)) return;
    this.busy = true;
    const email = this.email.trim();
    if (!this.codeAccepted) {
      const verified = await this.session.verifyCode({ email, code: this.code, type: 'recovery' });
      if (!verified.ok) {
        runInAction(() => {
          this.busy = false;
          this.error = authErrorMessage(verified.error);
          if (verified.error.code === 'otp_expired') this.code = '';
        });
        return;
      }
      runInAction(() => {
        this.codeAccepted = true;
      });
    }
    const changed = await this.session.updatePassword(this.password);
    if (!changed.ok) {
      runInAction(() => {
        this.busy = false;
        this.error = authErrorMessage(changed.error);
      });
      return;
    }
    await this.flow.completeSignIn();
    runInAction(() => {
      this.busy = false;
      this.navigator.navigate(this.flow.takeReturnTo(), { replace: true });
    });
  }

  private async sendCode(): Promise<void> {
    const email = this.email.trim();
    this.busy = true;
    this.notice = null;
    const sent = await this.session.requestPasswordReset(email);
    runInAction(() => {
      this.busy = false;
      this.clock.tick();
      if (sent.ok) {
        this.cooldowns.markSent(email);
        this.step = 'reset';
        this.submitted = false;
        this.notice = `If an account uses ${email}, we sent it a ${CODE_DIGITS}-digit code.`;
        return;
      }
      const seconds = retryAfterSeconds(sent.error);
      if (sent.error.code === 'over_email_send_rate_limit') {
        this.cooldowns.waitFor(email, seconds ?? 60);
        // A code was sent recently: let the visitor enter it.
        this.step = 'reset';
        this.submitted = false;
      }
      this.error = authErrorMessage(sent.error);
    });
  }
}
