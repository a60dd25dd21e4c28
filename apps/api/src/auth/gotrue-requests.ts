import { LOGOUT_SCOPES, type LogoutScope, RESEND_TYPES, type ResendType, VERIFICATION_TYPES, type VerificationType } from '@kiln/domain';
import { phoneDisabled, validationFailed } from './gotrue-errors.js';

// Hand-written readers for the GoTrue request bodies: they answer with GoTrue's (and SPEC §5's)
// exact messages, accept the extra fields auth-js sends (gotrue_meta_security, code_challenge…)
// and never let a wrong type reach a use case.

type Body = Readonly<Record<string, unknown>>;

/** SPEC §5 messages. */
export const NEED_EMAIL_AND_PASSWORD = 'You must provide either an email or phone number and a password';
export const NEED_EMAIL = 'You must provide either an email or phone number.';
export const NEED_EMAIL_AND_TYPE = 'You must provide either an email or phone number and a type';

export function asBody(raw: unknown): Body {
  if (raw === undefined || raw === null || raw === '') return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw validationFailed('The request body must be a JSON object');
  return raw as Body;
}

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

function optionalString(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw validationFailed(`${field} must be a string`);
  return value;
}

/** A phone number where Kiln has no phone sign-in. */
function refusePhone(body: Body): void {
  if (present(body['phone']) && !present(body['email'])) throw phoneDisabled();
}

function emailAndPassword(body: Body): { email: string; password: string } {
  refusePhone(body);
  const email = optionalString(body, 'email');
  const password = optionalString(body, 'password');
  if (!email || !password) throw validationFailed(NEED_EMAIL_AND_PASSWORD);
  return { email, password };
}

export function readSignUp(raw: unknown): { email: string; password: string; data?: unknown } {
  const body = asBody(raw);
  return { ...emailAndPassword(body), data: body['data'] };
}

export function readPasswordGrant(raw: unknown): { email: string; password: string } {
  return emailAndPassword(asBody(raw));
}

export function readRefreshGrant(raw: unknown): { refreshToken: string } {
  const refreshToken = optionalString(asBody(raw), 'refresh_token');
  if (!refreshToken) throw validationFailed('refresh_token required');
  return { refreshToken };
}

export type GrantType = 'password' | 'refresh_token';

export function readGrantType(raw: unknown): GrantType {
  if (raw === 'password' || raw === 'refresh_token') return raw;
  throw validationFailed('unsupported_grant_type');
}

export function readOtp(raw: unknown): { email: string; createUser: boolean; data?: unknown } {
  const body = asBody(raw);
  refusePhone(body);
  const email = optionalString(body, 'email');
  if (!email) throw validationFailed(NEED_EMAIL);
  const createUser = body['create_user'];
  if (createUser !== undefined && createUser !== null && typeof createUser !== 'boolean') throw validationFailed('create_user must be a boolean');
  return { email, createUser: createUser ?? true, data: body['data'] };
}

export function readResend(raw: unknown): { type: ResendType; email: string } {
  const body = asBody(raw);
  refusePhone(body);
  const email = optionalString(body, 'email');
  const type = body['type'];
  if (!email || !present(type)) throw validationFailed(NEED_EMAIL_AND_TYPE);
  if (!(RESEND_TYPES as readonly unknown[]).includes(type)) throw validationFailed(`Missing one of these types: ${RESEND_TYPES.join(', ')}`);
  return { type: type as ResendType, email };
}

export function readRecover(raw: unknown): { email: string } {
  const email = optionalString(asBody(raw), 'email');
  if (!email) throw validationFailed('Password recovery requires an email');
  return { email };
}

export function readVerify(raw: unknown): { type: VerificationType; email: string; token: string } {
  const body = asBody(raw);
  refusePhone(body);
  const type = body['type'];
  if (!present(type)) throw validationFailed('Verify requires a verification type');
  if (!(VERIFICATION_TYPES as readonly unknown[]).includes(type)) throw validationFailed(`Unsupported verification type: ${String(type)}`);
  if (present(body['token_hash']) && !present(body['token'])) {
    throw validationFailed('Verification by token_hash is not supported: verify with the email and the 6-digit code');
  }
  const email = optionalString(body, 'email');
  const token = optionalString(body, 'token');
  if (!email || !token) throw validationFailed('Verify requires an email and a token');
  return { type: type as VerificationType, email, token };
}

export function readUserUpdate(raw: unknown): { email?: string; password?: string; data?: unknown } {
  const body = asBody(raw);
  if (present(body['phone'])) throw phoneDisabled();
  const email = optionalString(body, 'email');
  const password = optionalString(body, 'password');
  return {
    ...(email !== undefined && email !== '' ? { email } : {}),
    ...(password !== undefined && password !== '' ? { password } : {}),
    ...(body['data'] !== undefined ? { data: body['data'] } : {}),
  };
}

export function readLogoutScope(raw: unknown): LogoutScope {
  if (raw === undefined || raw === '') return 'global';
  if ((LOGOUT_SCOPES as readonly unknown[]).includes(raw)) return raw as LogoutScope;
  throw validationFailed(`Unsupported logout scope "${String(raw)}"`);
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of `Authorization: Bearer <token>`, or '' when the header is absent or not a bearer. */
export function bearerTokenOf(header: string | string[] | undefined): string {
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? '') : '';
}

// Second factors (/factors). auth-js sends `{ friendly_name, factor_type, issuer }` to enrol, the
// whole params object (`{ factorId }`) to challenge, `{ challenge_id, code }` to verify.

export function readEnroll(raw: unknown): { factorType: string; friendlyName?: string; issuer?: string } {
  const body = asBody(raw);
  const factorType = optionalString(body, 'factor_type');
  if (!factorType) throw validationFailed('factor_type needs to be totp');
  const friendlyName = optionalString(body, 'friendly_name');
  const issuer = optionalString(body, 'issuer');
  return { factorType, ...(friendlyName !== undefined ? { friendlyName } : {}), ...(issuer !== undefined ? { issuer } : {}) };
}

export function readVerifyFactor(raw: unknown): { challengeId: string; code: string } {
  const body = asBody(raw);
  const challengeId = optionalString(body, 'challenge_id');
  const code = optionalString(body, 'code');
  if (!challengeId) throw validationFailed('challenge_id required');
  if (!code) throw validationFailed('Code needs to be non-empty');
  return { challengeId, code };
}

/** Ids are ours (UUIDs); anything else cannot name a factor or a challenge. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

export function readId(raw: unknown, what: string): string {
  if (typeof raw !== 'string' || !ID.test(raw)) throw validationFailed(`${what} is not a valid id`);
  return raw;
}
