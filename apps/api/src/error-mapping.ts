import { HttpException, HttpStatus } from '@nestjs/common';
import type { DomainError, Result } from '@kiln/domain';

/**
 * The one place where error codes become HTTP statuses and bodies. Every error reply of the
 * API has the shape `{ code, detail, ...data }`: `detail` is the text the web shows (SPEC §7
 * "Failures throw the reply's detail text"), `code` what it branches on, and the domain error's
 * other fields follow in snake_case (`limit_type: 'credit'` opens the right upgrade dialog).
 */
export interface ErrorBody {
  readonly code: string;
  readonly detail: string;
  readonly [field: string]: unknown;
}

export interface HttpError {
  readonly status: number;
  readonly body: ErrorBody;
}

interface Mapping {
  readonly status: HttpStatus;
  /** The code on the wire when it differs from the domain's (auth speaks GoTrue's codes). */
  readonly wireCode?: string;
  /** Data fields named differently on the wire (a build's `log` is `build_log`). */
  readonly fieldNames?: Readonly<Record<string, string>>;
}

/** Errors made by the API itself (not the domain). */
export const VALIDATION_FAILED = 'VALIDATION_FAILED';
export const PROJECT_NOT_FOUND = 'PROJECTS.NOT_FOUND';
/** The project has no sandbox yet (before POST /api/sandbox/{id}/ensure). */
export const SANDBOX_NOT_FOUND = 'SANDBOX.NOT_FOUND';
/** The file or folder a sandbox request names does not exist. */
export const SANDBOX_FILE_NOT_FOUND = 'SANDBOX.FILE_NOT_FOUND';
/** A folder where a file was expected (read-file, write-file on a folder). */
export const SANDBOX_NOT_A_FILE = 'SANDBOX.NOT_A_FILE';
/** A file where a folder was expected (read-directory on a file, a file as a parent). */
export const SANDBOX_NOT_A_DIRECTORY = 'SANDBOX.NOT_A_DIRECTORY';
/** Something else already has that name (create-directory over a file). */
export const SANDBOX_PATH_TAKEN = 'SANDBOX.PATH_TAKEN';
/** A development route (the dev outbox) asked from another machine. */
export const DEV_LOOPBACK_ONLY = 'DEV.LOOPBACK_ONLY';

const MAPPINGS: Readonly<Record<string, Mapping>> = {
  // Request shape
  [VALIDATION_FAILED]: { status: HttpStatus.BAD_REQUEST },
  // Auth (guard): 401 on every /api/* route so clients refresh the session and retry (docs/decisions.md)
  'AUTH.MISSING_TOKEN': { status: HttpStatus.UNAUTHORIZED, wireCode: 'no_authorization' },
  'AUTH.INVALID_TOKEN': { status: HttpStatus.UNAUTHORIZED, wireCode: 'bad_jwt' },
  'AUTH.SESSION_ENDED': { status: HttpStatus.UNAUTHORIZED, wireCode: 'session_not_found' },
  // A password-only session of an account with a second factor: 403, not 401 (refreshing cannot help).
  'AUTH.SECOND_FACTOR_REQUIRED': { status: HttpStatus.FORBIDDEN, wireCode: 'insufficient_aal' },
  // Credits
  'CREDITS.LIMIT_REACHED': { status: HttpStatus.PAYMENT_REQUIRED },
  'CREDITS.IDEMPOTENCY_CONFLICT': { status: HttpStatus.CONFLICT },
  'CREDITS.ALREADY_REFUNDED': { status: HttpStatus.CONFLICT },
  'CREDITS.UNKNOWN_DEBIT': { status: HttpStatus.NOT_FOUND },
  'CREDITS.INVALID_AMOUNT': { status: HttpStatus.BAD_REQUEST },
  // Profiles and plans
  'PROFILES.NOT_FOUND': { status: HttpStatus.NOT_FOUND },
  'PLANS.UNKNOWN': { status: HttpStatus.BAD_REQUEST },
  'MONEY.INVALID_AMOUNT': { status: HttpStatus.BAD_REQUEST },
  'MONEY.UNKNOWN_CURRENCY': { status: HttpStatus.BAD_REQUEST },
  // Referrals
  'REFERRALS.INVALID_CODE': { status: HttpStatus.BAD_REQUEST },
  'REFERRALS.SELF_REFERRAL': { status: HttpStatus.BAD_REQUEST },
  'REFERRALS.UNKNOWN_CODE': { status: HttpStatus.NOT_FOUND },
  'REFERRALS.ALREADY_REFERRED': { status: HttpStatus.CONFLICT },
  'REFERRALS.CIRCULAR': { status: HttpStatus.CONFLICT },
  'REFERRALS.CODE_GENERATION_FAILED': { status: HttpStatus.SERVICE_UNAVAILABLE },
  // Projects and publishing
  [PROJECT_NOT_FOUND]: { status: HttpStatus.NOT_FOUND },
  'PROJECTS.LIMIT_REACHED': { status: HttpStatus.PAYMENT_REQUIRED },
  // The project's turn lock is taken (an AI turn runs or waits): apply-theme does not wait for it
  'PROJECTS.BUSY': { status: HttpStatus.CONFLICT },
  // A template id the catalog does not have (apply-template)
  'TEMPLATES.NOT_FOUND': { status: HttpStatus.NOT_FOUND },
  'PUBLISHING.NOT_INCLUDED': { status: HttpStatus.PAYMENT_REQUIRED },
  'PUBLISHING.LIMIT_REACHED': { status: HttpStatus.PAYMENT_REQUIRED },
  'PUBLISHING.PLAN_UNDETERMINED': { status: HttpStatus.CONFLICT },
  'PUBLISHING.CHECK_FAILED': { status: HttpStatus.SERVICE_UNAVAILABLE },
  // First-party analytics (SPEC §5 tracking rules; the operators' chart)
  'ANALYTICS.EVENT_NAME_REQUIRED': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.PAGE_CATEGORY_REQUIRED': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.PAGE_ACTION_REQUIRED': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.PLAN_ID_REQUIRED': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.PLAN_NAME_REQUIRED': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.INVALID_PLAN_PRICE': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.RESERVED_EVENT_NAME': { status: HttpStatus.BAD_REQUEST },
  'ANALYTICS.RATE_LIMITED': { status: HttpStatus.TOO_MANY_REQUESTS },
  'ANALYTICS.NOT_AN_OPERATOR': { status: HttpStatus.FORBIDDEN },
  'ANALYTICS.INVALID_DAYS': { status: HttpStatus.BAD_REQUEST },
  // Files attached to prompts (docs/ai-api.md "Attachments")
  'ATTACHMENTS.TOO_LARGE': { status: HttpStatus.PAYLOAD_TOO_LARGE, fieldNames: { maxBytes: 'max_bytes' } },
  'ATTACHMENTS.UNSUPPORTED_TYPE': { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE },
  'ATTACHMENTS.INVALID': { status: HttpStatus.BAD_REQUEST },
  'ATTACHMENTS.NOT_FOUND': { status: HttpStatus.NOT_FOUND },
  'ATTACHMENTS.STORE_UNAVAILABLE': { status: HttpStatus.SERVICE_UNAVAILABLE },
  // Hosting (docs/hosting.md)
  // Project databases (docs/databases.md)
  'DATABASES.NOT_CONNECTED': { status: HttpStatus.NOT_FOUND },
  'DATABASES.PROVISIONING': { status: HttpStatus.CONFLICT },
  'DATABASES.SERVER_UNAVAILABLE': { status: HttpStatus.SERVICE_UNAVAILABLE },
  'DATABASES.MIGRATION_FAILED': { status: HttpStatus.UNPROCESSABLE_ENTITY },
  'DATABASES.MIGRATION_CHANGED': { status: HttpStatus.CONFLICT },
  'DATABASES.QUOTA_EXCEEDED': { status: HttpStatus.PAYMENT_REQUIRED, fieldNames: { sizeBytes: 'size_bytes', quotaBytes: 'quota_bytes' } },
  'HOSTING.INVALID_SLUG': { status: HttpStatus.BAD_REQUEST },
  'HOSTING.INVALID_DOMAIN': { status: HttpStatus.BAD_REQUEST },
  'HOSTING.SLUG_TAKEN': { status: HttpStatus.CONFLICT },
  'HOSTING.DOMAIN_TAKEN': { status: HttpStatus.CONFLICT },
  'HOSTING.NOT_PUBLISHED': { status: HttpStatus.CONFLICT },
  'HOSTING.NOTHING_TO_PUBLISH': { status: HttpStatus.CONFLICT },
  'HOSTING.DATABASE_UNSAFE': { status: HttpStatus.CONFLICT },
  'HOSTING.DATABASE_CHECK_UNAVAILABLE': { status: HttpStatus.SERVICE_UNAVAILABLE },
  'HOSTING.DNS_NOT_READY': { status: HttpStatus.CONFLICT },
  'HOSTING.TOO_MANY_DOMAINS': { status: HttpStatus.CONFLICT },
  'HOSTING.RELEASE_NOT_FOUND': { status: HttpStatus.NOT_FOUND },
  'HOSTING.DOMAIN_NOT_FOUND': { status: HttpStatus.NOT_FOUND },
  'HOSTING.BUILD_FAILED': { status: HttpStatus.UNPROCESSABLE_ENTITY, fieldNames: { log: 'build_log' } },
  'HOSTING.DNS_UNAVAILABLE': { status: HttpStatus.SERVICE_UNAVAILABLE },
  'HOSTING.SCREENSHOT_FAILED': { status: HttpStatus.SERVICE_UNAVAILABLE },
  // Sandboxes (docs/sandbox-api.md); SandboxPathRefused carries the path codes, SandboxLimitReached the limits
  'SANDBOX.PATH_OUTSIDE': { status: HttpStatus.BAD_REQUEST },
  'SANDBOX.PATH_TOO_LONG': { status: HttpStatus.BAD_REQUEST },
  'SANDBOX.LINK_LOOP': { status: HttpStatus.BAD_REQUEST },
  // The file tree never changes node_modules, .git or the caches (file-actions/protected-paths.ts)
  'SANDBOX.PATH_PROTECTED': { status: HttpStatus.BAD_REQUEST },
  'SANDBOX.TOO_LARGE': { status: HttpStatus.PAYLOAD_TOO_LARGE },
  'SANDBOX.DISK_LIMIT': { status: HttpStatus.PAYLOAD_TOO_LARGE },
  [SANDBOX_NOT_FOUND]: { status: HttpStatus.NOT_FOUND },
  [SANDBOX_FILE_NOT_FOUND]: { status: HttpStatus.NOT_FOUND },
  [SANDBOX_NOT_A_FILE]: { status: HttpStatus.BAD_REQUEST },
  [SANDBOX_NOT_A_DIRECTORY]: { status: HttpStatus.BAD_REQUEST },
  [SANDBOX_PATH_TAKEN]: { status: HttpStatus.CONFLICT },
  // Repository import (SPEC §8 'Failed to setup repository: {error}')
  'REPOSITORY.URL_REFUSED': { status: HttpStatus.BAD_REQUEST },
  'REPOSITORY.IMPORT_FAILED': { status: HttpStatus.UNPROCESSABLE_ENTITY },
  'REPOSITORY.UNAVAILABLE': { status: HttpStatus.SERVICE_UNAVAILABLE },
  // AI (docs/ai-api.md): the provider failed or was cancelled; turns
  'AI.PROVIDER_FAILED': { status: HttpStatus.BAD_GATEWAY },
  'AI.ABORTED': { status: HttpStatus.SERVICE_UNAVAILABLE },
  'AI.RATE_LIMITED': { status: HttpStatus.TOO_MANY_REQUESTS },
  'AI.DECLINED': { status: HttpStatus.UNPROCESSABLE_ENTITY },
  'TURNS.NOT_FOUND': { status: HttpStatus.NOT_FOUND },
  'TURNS.NOT_AWAITING_APPROVAL': { status: HttpStatus.CONFLICT },
  'TURNS.IDEMPOTENCY_CONFLICT': { status: HttpStatus.CONFLICT },
  'TURNS.IN_PROGRESS': { status: HttpStatus.CONFLICT },
  // Billing
  'BILLING.NO_CUSTOMER': { status: HttpStatus.NOT_FOUND },
  'BILLING.NO_SUBSCRIPTION': { status: HttpStatus.NOT_FOUND },
  'BILLING.NOT_YOUR_SUBSCRIPTION': { status: HttpStatus.FORBIDDEN },
  'BILLING.NOT_PURCHASABLE': { status: HttpStatus.BAD_REQUEST },
  'BILLING.CURRENCY_CHANGED': { status: HttpStatus.CONFLICT },
  'BILLING.INVALID_WEBHOOK': { status: HttpStatus.BAD_REQUEST },
  'BILLING.PROVIDER_UNAVAILABLE': { status: HttpStatus.SERVICE_UNAVAILABLE },
};

/** How long a client should wait before retrying when the database cannot be reached (Retry-After, seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The reply of any route while the database cannot be reached (with Retry-After: DATABASE_RETRY_AFTER_SECONDS). */
export const DATABASE_UNAVAILABLE: HttpError = Object.freeze({
  status: HttpStatus.SERVICE_UNAVAILABLE,
  body: Object.freeze({ code: 'DATABASE_UNAVAILABLE', detail: 'The database cannot be reached right now. Please try again in a few seconds.' }),
});

export const INTERNAL_ERROR: HttpError = Object.freeze({
  status: HttpStatus.INTERNAL_SERVER_ERROR,
  body: Object.freeze({ code: 'INTERNAL', detail: 'Internal Server Error' }),
});

/** The codes this module knows (for tests and docs). */
export const MAPPED_CODES: readonly string[] = Object.keys(MAPPINGS);

/**
 * The HTTP reply for a domain (or API) error, or null when its code is unknown here — the
 * caller then logs it and answers INTERNAL_ERROR, so an unmapped code is never guessed at.
 */
export function httpErrorFor(error: DomainError): HttpError | null {
  const mapping = MAPPINGS[error.code];
  if (!mapping) return null;
  return { status: mapping.status, body: { ...dataOf(error, mapping.fieldNames), code: mapping.wireCode ?? error.code, detail: error.message } };
}

/**
 * The `{ code, detail, ...data }` body of any domain error, mapped or not (for errors sent inside
 * an event stream, where there is no HTTP status to choose).
 */
export function errorBodyOf(error: DomainError): ErrorBody {
  const mapping = MAPPINGS[error.code];
  return { ...dataOf(error, mapping?.fieldNames), code: mapping?.wireCode ?? error.code, detail: error.message };
}

/** camelCase → snake_case ('limitType' → 'limit_type'). */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The error's fields besides code and message, snake-cased, dates as ISO text. */
function dataOf(error: DomainError, names: Readonly<Record<string, string>> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === 'code' || key === 'message') continue;
    data[names[key] ?? snakeCase(key)] = value instanceof Date ? value.toISOString() : value;
  }
  return data;
}

/** An error reply the exception filter writes as is. */
export class ApiErrorException extends HttpException {
  constructor(readonly httpError: HttpError) {
    super(httpError.body, httpError.status);
  }
}

/** A domain error whose code has no mapping: a bug, logged and answered as a 500. */
export class UnmappedDomainError extends Error {
  constructor(readonly domainError: DomainError) {
    super(`Unmapped domain error ${domainError.code}: ${domainError.message}`);
    this.name = 'UnmappedDomainError';
  }
}

/** The exception to throw for a domain error (an unknown code throws UnmappedDomainError). */
export function toException(error: DomainError): ApiErrorException | UnmappedDomainError {
  const httpError = httpErrorFor(error);
  return httpError ? new ApiErrorException(httpError) : new UnmappedDomainError(error);
}

/** For controllers: the value of an ok result, or throws the mapped error reply. */
export function unwrap<T, E extends DomainError>(result: Result<T, E>): T {
  if (result.ok) return result.value;
  throw toException(result.error);
}

/** A 400 VALIDATION_FAILED reply with `detail` listing each problem as '<field>: <problem>'. */
export function validationFailed(problems: readonly string[]): ApiErrorException {
  return new ApiErrorException({
    status: HttpStatus.BAD_REQUEST,
    body: { code: VALIDATION_FAILED, detail: problems.join('; ') },
  });
}

/** The name Nest gives a status ('NOT_FOUND'), used as the code of framework errors without one. */
export function codeForStatus(status: number): string {
  const name = (HttpStatus as unknown as Record<number, string | undefined>)[status];
  return name ?? (status >= 500 ? 'INTERNAL' : `HTTP_${status}`);
}
