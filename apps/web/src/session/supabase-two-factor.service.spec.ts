import { describe, expect, it } from '@jest/globals';
import { type MfaGateway, SupabaseTwoFactorService } from './supabase-two-factor.service';

const apiError = (code: string, message = code) => ({ name: 'AuthApiError', code, message, status: 422 });
const factor = (id: string, status = 'verified') => ({ id, friendly_name: '', factor_type: 'totp', status, created_at: '2026-11-26T10:00:00Z', updated_at: '' });

/** auth-js's mfa API, recorded; each factor id accepts one code. */
class FakeMfa {
  readonly calls: { method: string; args: unknown }[] = [];
  factors = [factor('f1'), factor('f2')];
  accepts: Record<string, string> = {};
  async listFactors() {
    this.calls.push({ method: 'listFactors', args: null });
    return { data: { all: this.factors, totp: this.factors.filter((f) => f.status === 'verified'), phone: [], webauthn: [] }, error: null };
  }
  async enroll(args: unknown) {
    this.calls.push({ method: 'enroll', args });
    return { data: { id: 'f9', type: 'totp', friendly_name: '', totp: { qr_code: 'data:image/svg+xml;utf-8,<svg/>', secret: 'JBSWY3DP', uri: 'otpauth://x' } }, error: null };
  }
  async challengeAndVerify(args: { factorId: string; code: string }) {
    this.calls.push({ method: 'challengeAndVerify', args });
    return this.accepts[args.factorId] === args.code ? { data: {}, error: null } : { data: null, error: apiError('mfa_verification_failed', 'Invalid TOTP code entered') };
  }
  async unenroll(args: unknown) {
    this.calls.push({ method: 'unenroll', args });
    return { data: {}, error: null };
  }
}

const service = (mfa: FakeMfa) => new SupabaseTwoFactorService(mfa as unknown as MfaGateway);

describe('SupabaseTwoFactorService', () => {
  it('lists the verified apps and enrols a TOTP factor (QR code data URL and key)', async () => {
    const mfa = new FakeMfa();
    mfa.factors.push(factor('f3', 'unverified'));
    expect(await service(mfa).list()).toEqual({
      ok: true,
      value: [
        { id: 'f1', friendlyName: '', createdAt: '2026-11-26T10:00:00Z' },
        { id: 'f2', friendlyName: '', createdAt: '2026-11-26T10:00:00Z' },
      ],
    });
    expect(await service(mfa).enroll()).toEqual({ ok: true, value: { factorId: 'f9', qrCode: 'data:image/svg+xml;utf-8,<svg/>', secret: 'JBSWY3DP' } });
    expect(mfa.calls.find((c) => c.method === 'enroll')?.args).toEqual({ factorType: 'totp' });
  });

  it('at sign-in tries each verified app until one takes the code', async () => {
    const mfa = new FakeMfa();
    mfa.accepts = { f2: '123456' };
    expect(await service(mfa).verifySignIn('123456')).toEqual({ ok: true, value: undefined });
    expect(mfa.calls.filter((c) => c.method === 'challengeAndVerify').map((c) => c.args)).toEqual([
      { factorId: 'f1', code: '123456' },
      { factorId: 'f2', code: '123456' },
    ]);
  });

  it('reports a code no app takes as mfa_verification_failed', async () => {
    const result = await service(new FakeMfa()).verifySignIn('000000');
    expect(result).toEqual({ ok: false, error: { code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' } });
  });
});
