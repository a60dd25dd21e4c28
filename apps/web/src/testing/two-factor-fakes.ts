// A TwoFactorService double for the login and settings view-models: replies queued per method.
import { err, ok, type Result } from '@kiln/domain';
import type { AuthFailure, TotpEnrolment, TotpFactorView, TwoFactorService } from '../app/ports';
import type { ScriptedSession } from './auth-fakes';

export const totpFactor = (id: string): TotpFactorView => ({ id, friendlyName: '', createdAt: '2026-11-26T10:00:00.000Z' });
export const ENROLMENT: TotpEnrolment = { factorId: 'factor-9', qrCode: 'data:image/svg+xml;utf-8,<svg/>', secret: 'JBSWY3DPEHPK3PXP' };

export class ScriptedTwoFactor implements TwoFactorService {
  readonly calls: { method: string; input: unknown }[] = [];
  factors: TotpFactorView[] = [];
  /** Codes the fake accepts (at sign-in and to confirm an enrolment). */
  accepted = new Set<string>(['123456']);
  failNext: Partial<Record<keyof TwoFactorService, AuthFailure>> = {};

  /** With a session: an accepted sign-in code makes it 'signed-in', as auth-js's MFA_CHALLENGE_VERIFIED does. */
  constructor(private readonly session: ScriptedSession | null = null) {}

  async list(): Promise<Result<readonly TotpFactorView[], AuthFailure>> {
    return this.answer('list', null, () => [...this.factors]);
  }
  async enroll(): Promise<Result<TotpEnrolment, AuthFailure>> {
    return this.answer('enroll', null, () => ENROLMENT);
  }
  async confirmEnrolment(factorId: string, code: string): Promise<Result<void, AuthFailure>> {
    if (!this.accepted.has(code)) return this.wrong('confirmEnrolment', { factorId, code });
    return this.answer('confirmEnrolment', { factorId, code }, () => void this.factors.push(totpFactor(factorId)));
  }
  async remove(factorId: string): Promise<Result<void, AuthFailure>> {
    return this.answer('remove', factorId, () => void (this.factors = this.factors.filter((f) => f.id !== factorId)));
  }
  async verifySignIn(code: string): Promise<Result<void, AuthFailure>> {
    if (!this.accepted.has(code)) return this.wrong('verifySignIn', code);
    return this.answer('verifySignIn', code, () => void this.session?.setState('signed-in'));
  }

  callsOf(method: keyof TwoFactorService): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.input);
  }

  private async wrong(method: keyof TwoFactorService, input: unknown): Promise<Result<never, AuthFailure>> {
    this.calls.push({ method, input });
    await Promise.resolve();
    return err({ code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
  }

  private async answer<T>(method: keyof TwoFactorService, input: unknown, value: () => T): Promise<Result<T, AuthFailure>> {
    this.calls.push({ method, input });
    await Promise.resolve();
    const failure = this.failNext[method];
    if (failure) {
      delete this.failNext[method];
      return err(failure);
    }
    return ok(value());
  }
}
