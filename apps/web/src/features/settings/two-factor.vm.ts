import { TOTP_DIGITS } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Toasts, type TotpEnrolment, type TotpFactorView, type TwoFactorService, TYPES } from '../../app/ports';
import { authErrorMessage } from '../auth/auth-messages';
import { extractCode } from '../auth/verify.vm';

export type TwoFactorStatus = 'loading' | 'ready' | 'error';

/**
 * Settings' two-factor section: set up an authenticator app (scan the QR code or type the key,
 * then confirm with a first code), see the apps set up, remove one. Confirming makes this
 * session aal2, so removing works from here without signing in again.
 */
@injectable()
export class TwoFactorVm {
  status: TwoFactorStatus = 'loading';
  factors: readonly TotpFactorView[] = [];
  enrolment: TotpEnrolment | null = null;
  code = '';
  starting = false;
  confirming = false;
  removingId: string | null = null;
  error: string | null = null;

  constructor(
    @inject(TYPES.TwoFactor) private readonly twoFactor: TwoFactorService,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
  ) {
    makeAutoObservable<TwoFactorVm, 'twoFactor' | 'toasts'>(this, { twoFactor: false, toasts: false }, { autoBind: true });
  }

  get enabled(): boolean {
    return this.factors.length > 0;
  }

  get codeDigits(): readonly string[] {
    return Array.from({ length: TOTP_DIGITS }, (_, i) => this.code[i] ?? '');
  }

  async load(): Promise<void> {
    const listed = await this.twoFactor.list();
    runInAction(() => {
      if (listed.ok) {
        this.factors = listed.value;
        this.status = 'ready';
      } else this.status = 'error';
    });
  }

  async start(): Promise<void> {
    if (this.starting || this.enrolment) return;
    this.starting = true;
    this.error = null;
    const enrolled = await this.twoFactor.enroll();
    runInAction(() => {
      this.starting = false;
      if (enrolled.ok) {
        this.enrolment = enrolled.value;
        this.code = '';
      } else this.error = authErrorMessage(enrolled.error);
    });
  }

  setCode(value: string): void {
    this.code = extractCode(value);
    this.error = null;
  }

  async confirm(): Promise<void> {
    const enrolment = this.enrolment;
    if (!enrolment || this.confirming) return;
    if (this.code.length !== TOTP_DIGITS) {
      this.error = `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`;
      return;
    }
    this.confirming = true;
    const confirmed = await this.twoFactor.confirmEnrolment(enrolment.factorId, this.code);
    runInAction(() => {
      this.confirming = false;
      if (!confirmed.ok) {
        this.code = '';
        this.error = authErrorMessage(confirmed.error);
        return;
      }
      this.enrolment = null;
      this.code = '';
    });
    if (!confirmed.ok) return;
    this.toasts.show({ title: 'Two-factor authentication is on', description: 'You will be asked for a code from your app when you log in.', variant: 'success' });
    await this.load();
  }

  /** Abandons the set-up; the unconfirmed factor is removed (the server replaces it on the next set-up anyway). */
  async cancel(): Promise<void> {
    const enrolment = this.enrolment;
    this.enrolment = null;
    this.code = '';
    this.error = null;
    if (enrolment) await this.twoFactor.remove(enrolment.factorId);
  }

  async remove(factorId: string): Promise<void> {
    if (this.removingId !== null) return;
    this.removingId = factorId;
    this.error = null;
    const removed = await this.twoFactor.remove(factorId);
    runInAction(() => {
      this.removingId = null;
      if (!removed.ok) this.error = authErrorMessage(removed.error);
    });
    if (!removed.ok) return;
    this.toasts.show({ title: 'Authenticator app removed', variant: 'success' });
    await this.load();
  }
}
