import { describe, expect, it } from '@jest/globals';
import {
  alreadyReferred,
  circularReferral,
  codeGenerationFailed,
  creditLimitReached,
  idempotencyConflict,
  invalidAccessToken,
  missingAccessToken,
  parseReferralCode,
  profileNotFound,
  projectBusy,
  projectLimitReached,
  publishCheckFailed,
  publishLimitReached,
  publishingNotIncluded,
  sandboxDiskLimit,
  sandboxLinkLoop,
  sandboxPathOutside,
  sandboxPathTooLong,
  sandboxTooLarge,
  selfReferral,
  themeInvalid,
  sessionEnded,
  unknownDebit,
  unknownReferralCode,
  type DomainError,
} from '@kiln/domain';
import {
  ApiErrorException,
  INTERNAL_ERROR,
  UnmappedDomainError,
  codeForStatus,
  httpErrorFor,
  snakeCase,
  toException,
  unwrap,
  validationFailed,
} from './error-mapping.js';

const invalidCode = (() => {
  const r = parseReferralCode('nope');
  if (r.ok) throw new Error('expected an invalid code');
  return r.error;
})();

describe('httpErrorFor', () => {
  it("CREDITS.LIMIT_REACHED → 402 with limit_type 'credit' and the domain's message as detail", () => {
    const error = creditLimitReached(0, 1);
    expect(httpErrorFor(error)).toEqual({
      status: 402,
      body: { code: 'CREDITS.LIMIT_REACHED', detail: error.message, limit_type: 'credit', available: 0, requested: 1 },
    });
  });

  it("PROJECTS.LIMIT_REACHED → 402 with limit_type 'project'", () => {
    const error = projectLimitReached('Free', 3);
    expect(httpErrorFor(error)).toEqual({
      status: 402,
      body: { code: 'PROJECTS.LIMIT_REACHED', detail: 'Your Free plan includes 3 private projects. Please upgrade to create more.', limit_type: 'project', limit: 3 },
    });
  });

  it("PUBLISHING.NOT_INCLUDED and LIMIT_REACHED → 402 with limit_type 'published' and SPEC §8's text", () => {
    expect(httpErrorFor(publishingNotIncluded('Free'))).toEqual({
      status: 402,
      body: {
        code: 'PUBLISHING.NOT_INCLUDED',
        detail: "Your Free plan doesn't include domain connections. Please upgrade to connect a custom domain.",
        limit_type: 'published',
        plan: 'Free',
      },
    });
    expect(httpErrorFor(publishLimitReached(2))).toEqual({
      status: 402,
      body: {
        code: 'PUBLISHING.LIMIT_REACHED',
        detail: "You've reached your limit of 2 published project(s). Please upgrade to connect more domains.",
        limit_type: 'published',
        limit: 2,
      },
    });
  });

  it.each<[string, DomainError, number]>([
    ['PROFILES.NOT_FOUND', profileNotFound('u1'), 404],
    ['CREDITS.IDEMPOTENCY_CONFLICT', idempotencyConflict('k'), 409],
    ['CREDITS.UNKNOWN_DEBIT', unknownDebit('k'), 404],
    ['REFERRALS.INVALID_CODE', invalidCode, 400],
    ['REFERRALS.SELF_REFERRAL', selfReferral(), 400],
    ['REFERRALS.UNKNOWN_CODE', unknownReferralCode(), 404],
    ['REFERRALS.ALREADY_REFERRED', alreadyReferred(), 409],
    ['REFERRALS.CIRCULAR', circularReferral(), 409],
    ['REFERRALS.CODE_GENERATION_FAILED', codeGenerationFailed(10), 503],
    ['PUBLISHING.CHECK_FAILED', publishCheckFailed(), 503],
    ['VALIDATION_FAILED', { code: 'VALIDATION_FAILED', message: 'name: must be a string' }, 400],
    ['PROJECTS.BUSY', projectBusy(), 409],
    ['VALIDATION_FAILED', themeInvalid(), 400],
  ])('%s → %i with code and detail', (code, error, status) => {
    const mapped = httpErrorFor(error);
    expect(mapped?.status).toBe(status);
    expect(mapped?.body.code).toBe(code);
    expect(mapped?.body.detail).toBe(error.message);
  });

  it.each<[string, number]>([
    ['SANDBOX.NOT_FOUND', 404],
    ['SANDBOX.FILE_NOT_FOUND', 404],
    ['SANDBOX.NOT_A_FILE', 400],
    ['SANDBOX.NOT_A_DIRECTORY', 400],
    ['SANDBOX.PATH_TAKEN', 409],
  ])('%s → %i', (code, status) => {
    expect(httpErrorFor({ code, message: 'm' })).toEqual({ status, body: { code, detail: 'm' } });
  });

  it('SANDBOX.PATH_OUTSIDE → 400 with the refused path and the reason', () => {
    expect(httpErrorFor(sandboxPathOutside('../etc/passwd', 'parent-escape'))).toEqual({
      status: 400,
      body: { code: 'SANDBOX.PATH_OUTSIDE', detail: 'Path is outside the project: "../etc/passwd"', path: '../etc/passwd', reason: 'parent-escape' },
    });
  });

  it('SANDBOX.PATH_TOO_LONG and SANDBOX.LINK_LOOP → 400; SANDBOX.TOO_LARGE and SANDBOX.DISK_LIMIT → 413 naming the limit', () => {
    expect(httpErrorFor(sandboxPathTooLong('a'.repeat(300), 'name'))).toEqual({
      status: 400,
      body: {
        code: 'SANDBOX.PATH_TOO_LONG',
        detail: 'A file or folder name in the path is too long: at most 255 bytes',
        path: `${'a'.repeat(200)}…`,
        part: 'name',
        limit_bytes: 255,
      },
    });
    expect(httpErrorFor(sandboxLinkLoop('a/b'))).toMatchObject({ status: 400, body: { code: 'SANDBOX.LINK_LOOP', path: 'a/b' } });
    expect(httpErrorFor(sandboxTooLarge('tree-entries', 20_000))).toEqual({
      status: 413,
      body: { code: 'SANDBOX.TOO_LARGE', detail: 'The tree is too large: at most 20000 entries; ask for a folder inside it', cap: 'tree-entries', limit: 20_000 },
    });
    expect(httpErrorFor(sandboxDiskLimit(100, 120))).toEqual({
      status: 413,
      body: { code: 'SANDBOX.DISK_LIMIT', detail: 'The project would be larger than its disk limit of 100 bytes', limit_bytes: 100, would_be_bytes: 120 },
    });
  });

  it('snake-cases the data fields: PROFILES.NOT_FOUND carries user_id', () => {
    expect(httpErrorFor(profileNotFound('u1'))?.body).toEqual({
      code: 'PROFILES.NOT_FOUND',
      detail: 'Record with id u1 not found',
      user_id: 'u1',
    });
  });

  it('answers auth failures 401 with GoTrue codes', () => {
    expect(httpErrorFor(missingAccessToken())).toEqual({
      status: 401,
      body: { code: 'no_authorization', detail: 'This endpoint requires a Bearer token' },
    });
    expect(httpErrorFor(invalidAccessToken())).toEqual({
      status: 401,
      body: { code: 'bad_jwt', detail: 'invalid JWT: unable to parse or verify signature' },
    });
    expect(httpErrorFor(sessionEnded())).toEqual({ status: 401, body: { code: 'session_not_found', detail: 'Session not found' } });
  });

  it('writes dates in data as ISO text', () => {
    const error = { code: 'CREDITS.IDEMPOTENCY_CONFLICT', message: 'x', seenAt: new Date('2026-01-02T03:04:05Z') };
    expect(httpErrorFor(error)?.body['seen_at']).toBe('2026-01-02T03:04:05.000Z');
  });

  it('returns null for an unknown code (never guesses)', () => {
    expect(httpErrorFor({ code: 'CREDITS.INVALID_CYCLE', message: 'bug' })).toBeNull();
    expect(httpErrorFor({ code: 'SOMETHING.NEW', message: 'x' })).toBeNull();
  });
});

describe('toException and unwrap', () => {
  it('turns a mapped error into an ApiErrorException with its status and body', () => {
    const exception = toException(creditLimitReached(0, 1));
    expect(exception).toBeInstanceOf(ApiErrorException);
    if (exception instanceof ApiErrorException) {
      expect(exception.getStatus()).toBe(402);
      expect(exception.getResponse()).toMatchObject({ code: 'CREDITS.LIMIT_REACHED', limit_type: 'credit' });
    }
  });

  it('turns an unmapped error into UnmappedDomainError (a logged 500)', () => {
    const exception = toException({ code: 'SOMETHING.NEW', message: 'boom' });
    expect(exception).toBeInstanceOf(UnmappedDomainError);
    expect(exception.message).toBe('Unmapped domain error SOMETHING.NEW: boom');
  });

  it('unwrap returns an ok value and throws the mapped error', () => {
    expect(unwrap({ ok: true, value: 42 })).toBe(42);
    expect(() => unwrap({ ok: false, error: selfReferral() })).toThrow(ApiErrorException);
  });

  it('the 500 body hides internals', () => {
    expect(INTERNAL_ERROR).toEqual({ status: 500, body: { code: 'INTERNAL', detail: 'Internal Server Error' } });
  });
});

describe('helpers', () => {
  it('validationFailed joins problems with "; "', () => {
    expect(validationFailed(['name: must be a string', 'x: is not allowed']).httpError).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', detail: 'name: must be a string; x: is not allowed' },
    });
  });

  it('snakeCase', () => {
    expect(snakeCase('limitType')).toBe('limit_type');
    expect(snakeCase('debitKey')).toBe('debit_key');
    expect(snakeCase('plan')).toBe('plan');
  });

  it('codeForStatus names statuses as Nest does', () => {
    expect(codeForStatus(404)).toBe('NOT_FOUND');
    expect(codeForStatus(413)).toBe('PAYLOAD_TOO_LARGE');
    expect(codeForStatus(599)).toBe('INTERNAL');
    expect(codeForStatus(499)).toBe('HTTP_499');
  });
});
