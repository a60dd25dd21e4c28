import type { GoTrueClient } from '@supabase/auth-js';
import { err, ok, type Result } from '@kiln/domain';
import type { AuthFailure, TotpEnrolment, TotpFactorView, TwoFactorService } from '../app/ports';
import { toAuthFailure } from './session-mapping';

/** The part of auth-js's mfa API the app uses (tests pass a fake). */
export type MfaGateway = Pick<GoTrueClient['mfa'], 'listFactors' | 'enroll' | 'challengeAndVerify' | 'unenroll'>;

/**
 * TwoFactorService on auth-js's `mfa` API against Kiln's /auth/v1/factors. A successful code
 * makes auth-js store the new aal2 session and announce MFA_CHALLENGE_VERIFIED, which the
 * session service turns into 'signed-in'.
 */
export class SupabaseTwoFactorService implements TwoFactorService {
  constructor(private readonly mfa: MfaGateway) {}

  async list(): Promise<Result<readonly TotpFactorView[], AuthFailure>> {
    const { data, error } = await this.mfa.listFactors();
    if (error) return err(toAuthFailure(error));
    return ok(data.totp.map((factor) => ({ id: factor.id, friendlyName: factor.friendly_name ?? '', createdAt: factor.created_at })));
  }

  async enroll(): Promise<Result<TotpEnrolment, AuthFailure>> {
    const { data, error } = await this.mfa.enroll({ factorType: 'totp' });
    if (error) return err(toAuthFailure(error));
    if (data.type !== 'totp') return err({ code: 'unexpected_failure', message: 'The server did not answer with an authenticator-app factor' });
    return ok({ factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
  }

  async confirmEnrolment(factorId: string, code: string): Promise<Result<void, AuthFailure>> {
    const { error } = await this.mfa.challengeAndVerify({ factorId, code });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  }

  async remove(factorId: string): Promise<Result<void, AuthFailure>> {
    const { error } = await this.mfa.unenroll({ factorId });
    return error ? err(toAuthFailure(error)) : ok(undefined);
  }

  async verifySignIn(code: string): Promise<Result<void, AuthFailure>> {
    const listed = await this.list();
    if (!listed.ok) return listed;
    let failure: AuthFailure = { code: 'mfa_factor_not_found', message: 'No authenticator app is set up for this account' };
    // Any of the account's apps may have shown the code: try each until one accepts it.
    for (const factor of listed.value) {
      const { error } = await this.mfa.challengeAndVerify({ factorId: factor.id, code });
      if (!error) return ok(undefined);
      failure = toAuthFailure(error);
      if (failure.code !== 'mfa_verification_failed') break;
    }
    return err(failure);
  }
}
