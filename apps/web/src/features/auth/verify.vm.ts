import { CODE_DIGITS } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Navigator, type SessionService, type Timers, TYPES } from '../../app/ports';
import { authErrorMessage, retryAfterSeconds } from './auth-messages';
import { CodeCooldowns } from './code-cooldown';
import { TickingClock } from './ticking-clock';
import { EMAIL_INVALID, isValidEmail } from './credentials';
import { PostSignInFlow } from './post-sign-in.flow';

export type VerifyType = 'signup' | 'email';

/** Digits of typed or pasted text: a run of exactly six digits wins ("Your code: 123 456" works too). */
export function extractCode(text: string): string {
  const run = new RegExp(`(?<!\\d)\\d{${CODE_DIGITS}}(?!\\d)`).exec(text);
  if (run) return run[0];
  return text.replace(/\D/g, '').slice(0, CODE_DIGITS);
}

export const PROFILE_SETUP_PATH = '/profile-setup';

/**
 * /verify?email=…: the 6-digit code from the mail (typed or pasted; a full code submits
 * itself), resend with a 60 s countdown, errors in people's words. A verified sign-up goes on
 * to /profile-setup; other verifications to the remembered path.
 */
@injectable()
export class VerifyVm {
  email = '';
  /** True when the page was opened without an address: the view then asks for it. */
  askEmail = false;
  type: VerifyType = 'signup';
  code = '';
  submitting = false;
  resending = false;
  error: string | null = null;
  notice: string | null = null;
  verified = false;
  private readonly clock: TickingClock;

  constructor(
    @inject(TYPES.Session) private readonly session: SessionService,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(TYPES.Timers) timers: Timers,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
    @inject(CodeCooldowns) private readonly cooldowns: CodeCooldowns,
  ) {
    this.clock = new TickingClock(timers);
    makeAutoObservable<VerifyVm, 'session' | 'navigator' | 'flow' | 'cooldowns' | 'clock'>(
      this,
      { session: false, navigator: false, flow: false, cooldowns: false, clock: false },
      { autoBind: true },
    );
  }

  /** From the query: email, optional type ('signup' | 'email') and optional code (/confirm links). */
  init(params: { email: string | null; type?: string | null; code?: string | null }): void {
    this.email = params.email?.trim() ?? '';
    this.askEmail = this.email === '';
    this.type = params.type === 'email' ? 'email' : 'signup';
    if (params.code) this.setCode(params.code);
  }

  /** Starts the countdown clock (call from an effect; `dispose` stops it). */
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

  get isComplete(): boolean {
    return this.code.length === CODE_DIGITS;
  }

  get emailError(): string | null {
    return this.askEmail && this.email !== '' && !isValidEmail(this.email) ? EMAIL_INVALID : null;
  }

  get resendSecondsLeft(): number {
    return this.email === '' ? 0 : this.cooldowns.secondsLeft(this.email, this.now);
  }

  get canResend(): boolean {
    return !this.resending && this.resendSecondsLeft === 0 && isValidEmail(this.email);
  }

  get resendLabel(): string {
    return this.resendSecondsLeft > 0 ? `Resend code in ${this.resendSecondsLeft}s` : 'Resend code';
  }

  get canSubmit(): boolean {
    return this.isComplete && !this.submitting && !this.verified && isValidEmail(this.email);
  }

  setEmail(value: string): void {
    this.email = value;
    this.error = null;
  }

  /** Typing or pasting into the code field; six digits submit at once. */
  setCode(value: string): void {
    this.code = extractCode(value);
    this.error = null;
    if (this.isComplete && isValidEmail(this.email)) void this.submit();
  }

  async submit(): Promise<void> {
    if (!this.isComplete) {
      this.error = `Enter the ${CODE_DIGITS}-digit code from your email.`;
      return;
    }
    if (!isValidEmail(this.email)) {
      this.error = EMAIL_INVALID;
      return;
    }
    if (this.submitting || this.verified) return;
    this.submitting = true;
    this.error = null;
    this.notice = null;
    const result = await this.session.verifyCode({ email: this.email.trim(), code: this.code, type: this.type });
    if (!result.ok) {
      runInAction(() => {
        this.submitting = false;
        this.error = authErrorMessage(result.error);
        if (result.error.code === 'otp_expired') this.code = '';
      });
      return;
    }
    runInAction(() => {
      this.verified = true;
    });
    await this.flow.completeSignIn();
    runInAction(() => {
      this.submitting = false;
      this.navigator.navigate(this.type === 'signup' ? PROFILE_SETUP_PATH : this.flow.takeReturnTo(), { replace: true });
    });
  }

  async resend(): Promise<void> {
    if (!this.canResend) return;
    const email = this.email.trim();
    this.resending = true;
    this.error = null;
    this.notice = null;
    const sent = await this.session.resendCode(email);
    runInAction(() => {
      this.resending = false;
      this.clock.tick();
      if (sent.ok) {
        this.cooldowns.markSent(email);
        this.code = '';
        this.notice = `We sent a new code to ${email}.`;
        return;
      }
      const seconds = retryAfterSeconds(sent.error);
      if (sent.error.code === 'over_email_send_rate_limit') this.cooldowns.waitFor(email, seconds ?? 60);
      this.error = authErrorMessage(sent.error);
    });
  }
}
