import { Logger } from '@nestjs/common';
import type { DomainError } from '@kiln/domain';
import type { Request, Response } from 'express';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE } from '../error-mapping.js';
import { API_VERSION_HEADER, negotiateApiVersion } from './api-version.js';

/** An error reply of /auth/v1, in GoTrue's terms: HTTP status, error code, message. */
export class GoTrueHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly extra: { readonly weakPasswordReasons?: readonly string[]; readonly retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'GoTrueHttpError';
  }
}

/** Errors the controller raises before reaching a use case. */
export const validationFailed = (message: string) => new GoTrueHttpError(400, 'validation_failed', message);
export const badJson = (detail: string) => new GoTrueHttpError(400, 'bad_json', `Could not parse request body as JSON: ${detail}`);
export const phoneDisabled = () => new GoTrueHttpError(400, 'phone_provider_disabled', 'Phone logins are disabled');
export const unexpectedFailure = () => new GoTrueHttpError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');
/** The database cannot be reached: 503 with Retry-After, the same code as on /api (GoTrue has none of its own for this). */
export const databaseUnavailable = () =>
  new GoTrueHttpError(503, DATABASE_UNAVAILABLE.body.code, DATABASE_UNAVAILABLE.body.detail, { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });

/** Domain error code → GoTrue status and code (and GoTrue's message where the domain's differs). */
const MAPPINGS: Readonly<Record<string, { status: number; code: string; message?: string }>> = {
  'AUTH.VALIDATION_FAILED': { status: 400, code: 'validation_failed' },
  'AUTH.WEAK_PASSWORD': { status: 422, code: 'weak_password' },
  'AUTH.SAME_PASSWORD': { status: 422, code: 'same_password' },
  'AUTH.INVALID_CREDENTIALS': { status: 400, code: 'invalid_credentials' },
  'AUTH.EMAIL_NOT_CONFIRMED': { status: 400, code: 'email_not_confirmed' },
  'AUTH.OTP_EXPIRED': { status: 403, code: 'otp_expired' },
  'AUTH.MAIL_RATE_LIMITED': { status: 429, code: 'over_email_send_rate_limit' },
  'AUTH.REQUEST_RATE_LIMITED': { status: 429, code: 'over_request_rate_limit' },
  'AUTH.REFRESH_TOKEN_NOT_FOUND': { status: 400, code: 'refresh_token_not_found' },
  'AUTH.REFRESH_TOKEN_ALREADY_USED': { status: 400, code: 'refresh_token_already_used' },
  'AUTH.USER_NOT_FOUND': { status: 403, code: 'user_not_found' },
  'AUTH.EMAIL_EXISTS': { status: 422, code: 'email_exists' },
  'AUTH.MISSING_TOKEN': { status: 401, code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' },
  'AUTH.INVALID_TOKEN': { status: 403, code: 'bad_jwt' },
  'AUTH.SESSION_ENDED': { status: 403, code: 'session_not_found', message: 'Session from session_id claim in JWT does not exist' },
  'AUTH.SECOND_FACTOR_REQUIRED': { status: 403, code: 'insufficient_aal' },
  // Second factors (internal/api/mfa.go).
  'MFA.FACTOR_NOT_FOUND': { status: 404, code: 'mfa_factor_not_found' },
  'MFA.FACTOR_NAME_CONFLICT': { status: 422, code: 'mfa_factor_name_conflict' },
  'MFA.TOO_MANY_FACTORS': { status: 422, code: 'too_many_enrolled_mfa_factors' },
  'MFA.INSUFFICIENT_AAL': { status: 403, code: 'insufficient_aal' },
  'MFA.CHALLENGE_NOT_FOUND': { status: 422, code: 'mfa_factor_not_found', message: 'MFA factor with the provided challenge ID not found' },
  'MFA.CHALLENGE_EXPIRED': { status: 422, code: 'mfa_challenge_expired' },
  'MFA.VERIFICATION_FAILED': { status: 422, code: 'mfa_verification_failed' },
  'MFA.VALIDATION_FAILED': { status: 400, code: 'validation_failed' },
};

/** The /auth/v1 reply for a domain error; an unknown code is a bug (logged 500). */
export function goTrueErrorFor(error: DomainError & { readonly reasons?: readonly string[]; readonly retryAfterSeconds?: number }): GoTrueHttpError {
  const mapping = MAPPINGS[error.code];
  if (!mapping) {
    new Logger('GoTrue').error(`Unmapped auth error ${error.code}: ${error.message}`);
    return unexpectedFailure();
  }
  return new GoTrueHttpError(mapping.status, mapping.code, mapping.message ?? error.message, {
    ...(error.reasons ? { weakPasswordReasons: error.reasons } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  });
}

/** The codes mapped (tests, docs). */
export const GOTRUE_MAPPED_CODES: readonly string[] = Object.keys(MAPPINGS);

/** For controllers: the value of an ok result, or throws the GoTrue error reply. */
export function orThrow<T, E extends DomainError>(result: { ok: true; value: T } | { ok: false; error: E }): T {
  if (result.ok) return result.value;
  throw goTrueErrorFor(result.error);
}

/**
 * Writes an error as GoTrue does (internal/api/errors.go HandleResponseError): with a known
 * X-Supabase-Api-Version the version is echoed and the body is `{ code, message }`; without,
 * the older `{ code: <status>, error_code, msg }`. Both carry `x-sb-error-code`; weak passwords
 * add `weak_password.reasons`, rate limits a Retry-After.
 */
export function writeGoTrueError(req: Request, res: Response, error: GoTrueHttpError): void {
  const version = negotiateApiVersion(req.headers[API_VERSION_HEADER.toLowerCase()]);
  if (version) res.setHeader(API_VERSION_HEADER, version);
  res.setHeader('x-sb-error-code', error.errorCode);
  if (error.extra.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.extra.retryAfterSeconds));
  const body: Record<string, unknown> = version
    ? { code: error.errorCode, message: error.message }
    : { code: error.status, error_code: error.errorCode, msg: error.message };
  if (error.extra.weakPasswordReasons) body['weak_password'] = { reasons: error.extra.weakPasswordReasons };
  res.status(error.status).json(body);
}
