import { describe, expect, it } from '@jest/globals';
import { type AuthUser, type EmailAddress, createAuthUser } from '@kiln/domain';
import type { Request, Response } from 'express';
import { negotiateApiVersion } from './api-version.js';
import { GOTRUE_MAPPED_CODES, GoTrueHttpError, goTrueErrorFor, writeGoTrueError } from './gotrue-errors.js';
import { asBody, bearerTokenOf, readLogoutScope, readOtp, readUserUpdate, readVerify } from './gotrue-requests.js';
import { userJson } from './gotrue-wire.js';

describe('negotiateApiVersion (GoTrue’s DetermineClosestAPIVersion)', () => {
  it.each([
    ['2024-01-01', '2024-01-01'],
    ['2025-07-15', '2024-01-01'],
    [' 2024-01-01 ', '2024-01-01'],
    ['2023-12-31', null],
    ['2024-02-30', null],
    ['2024-1-1', null],
    ['yesterday', null],
    ['', null],
    [undefined, null],
  ])('%p → %p', (raw, version) => {
    expect(negotiateApiVersion(raw)).toBe(version);
  });
});

describe('GoTrue error mapping', () => {
  it('maps every domain auth error to GoTrue’s status and code', () => {
    expect(goTrueErrorFor({ code: 'AUTH.OTP_EXPIRED', message: 'Token has expired or is invalid' })).toMatchObject({ status: 403, errorCode: 'otp_expired' });
    expect(goTrueErrorFor({ code: 'AUTH.WEAK_PASSWORD', message: 'm', reasons: ['length'] })).toMatchObject({
      status: 422,
      errorCode: 'weak_password',
      extra: { weakPasswordReasons: ['length'] },
    });
    expect(goTrueErrorFor({ code: 'AUTH.SESSION_ENDED', message: 'Session not found' }).message).toBe('Session from session_id claim in JWT does not exist');
    expect(goTrueErrorFor({ code: 'MFA.VERIFICATION_FAILED', message: 'Invalid TOTP code entered' })).toMatchObject({ status: 422, errorCode: 'mfa_verification_failed' });
    expect(goTrueErrorFor({ code: 'MFA.INSUFFICIENT_AAL', message: 'm' })).toMatchObject({ status: 403, errorCode: 'insufficient_aal' });
    expect(GOTRUE_MAPPED_CODES).toHaveLength(24);
  });

  it('answers an unmapped code as a 500 unexpected_failure', () => {
    expect(goTrueErrorFor({ code: 'AUTH.SOMETHING_NEW', message: 'x' })).toMatchObject({ status: 500, errorCode: 'unexpected_failure' });
  });

  it('writes both shapes', () => {
    const written: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
    const res = {
      setHeader: (k: string, v: string) => {
        written.headers[k.toLowerCase()] = v;
      },
      status(code: number) {
        written.status = code;
        return this;
      },
      json(body: unknown) {
        written.body = body;
      },
    } as unknown as Response;
    const error = new GoTrueHttpError(429, 'over_request_rate_limit', 'Request rate limit reached', { retryAfterSeconds: 7 });
    writeGoTrueError({ headers: {} } as Request, res, error);
    expect(written).toEqual({
      status: 429,
      body: { code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' },
      headers: { 'x-sb-error-code': 'over_request_rate_limit', 'retry-after': '7' },
    });
  });
});

describe('request readers', () => {
  it('accept the extra fields auth-js sends and default create_user to true', () => {
    expect(readOtp({ email: 'a@example.com', data: {}, gotrue_meta_security: { captcha_token: null }, code_challenge: null })).toEqual({
      email: 'a@example.com',
      createUser: true,
      data: {},
    });
    expect(readOtp({ email: 'a@example.com', create_user: false }).createUser).toBe(false);
  });

  it('refuse non-object bodies and token_hash verification', () => {
    expect(() => asBody([1])).toThrow('The request body must be a JSON object');
    expect(() => readVerify({ type: 'email', token_hash: 'abc' })).toThrow(/token_hash is not supported/);
    expect(() => readVerify({ type: 'invite', email: 'a@example.com', token: '123456' })).toThrow(/Unsupported verification type/);
  });

  it('read PUT /user: empty strings mean unchanged', () => {
    expect(readUserUpdate({ email: '', password: '', data: { a: 1 }, code_challenge: null })).toEqual({ data: { a: 1 } });
  });

  it('read the logout scope (default global) and bearer tokens', () => {
    expect(readLogoutScope(undefined)).toBe('global');
    expect(readLogoutScope('others')).toBe('others');
    expect(bearerTokenOf('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerTokenOf('bearer  abc ')).toBe('abc');
    expect(bearerTokenOf('Basic abc')).toBe('');
    expect(bearerTokenOf(undefined)).toBe('');
  });
});

describe('userJson', () => {
  const now = new Date('2026-01-15T10:00:00.000Z');
  const user: AuthUser = createAuthUser({ id: 'u1', identityId: 'i1', email: 'ana@example.com' as EmailAddress, passwordHash: 'h', metadata: {} }, now);

  it('never exposes the password hash', () => {
    expect(JSON.stringify(userJson(user))).not.toContain('"h"');
    expect(userJson(user)).not.toHaveProperty('passwordHash');
    expect(userJson(user)).not.toHaveProperty('encrypted_password');
  });

  it('adds new_email and email_change_sent_at only while a change is pending', () => {
    expect(userJson(user)).not.toHaveProperty('new_email');
    const pending = userJson({ ...user, emailChange: 'new@example.com' as EmailAddress, emailChangeSentAt: now });
    expect(pending).toMatchObject({ new_email: 'new@example.com', email_change_sent_at: now.toISOString() });
  });

  it('gives an obfuscated user no identities', () => {
    expect(userJson(user, { identities: 'none' }).identities).toEqual([]);
  });
});
