import { describe, expect, it } from '@jest/globals';
import { ValidationError } from 'class-validator';
import { clientKeyOf, promptDebitKey } from '@kiln/domain';
import { idempotencyKeyProblem } from '../credits/idempotency-key.js';
import { bearerToken, isApiRoute } from './bearer-auth.guard.js';
import { loggedUrl } from './logged-url.js';
import { validationProblems } from './validation.js';
import { iso, majorUnits } from './wire.js';

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
  ])('reads %p', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'abc', ['Bearer a']])('refuses %p', (header) => {
    expect(bearerToken(header as string | undefined)).toBeNull();
  });
});

describe('isApiRoute (decided from the declared route, not the URL)', () => {
  it.each([
    ['api/profile', '/', true],
    ['/api/projects', ':id', true],
    ['', 'api/x', true],
    [['api/a', 'b'], '/', true],
    ['API/Profile', '/', true],
    ['api', '/', true],
    ['health', '/', false],
    ['auth/v1', 'token', false],
    ['apiary', '/', false],
    [undefined, undefined, false],
  ])('%p + %p → %p', (controllerPath, handlerPath, expected) => {
    expect(isApiRoute(controllerPath, handlerPath)).toBe(expected);
  });
});

describe('validationProblems', () => {
  const error = (property: string, constraints: Record<string, string>, children: ValidationError[] = []) =>
    Object.assign(new ValidationError(), { property, constraints, children });

  it('reports one problem per field: the top-most failing decorator (listed last), without the repeated name', () => {
    expect(validationProblems([error('name', { maxLength: 'name must be shorter', isString: 'name must be a string' })])).toEqual([
      'name: must be a string',
    ]);
  });

  it('reports a missing value first and unknown fields as not allowed', () => {
    expect(
      validationProblems([
        error('code', { isDefined: 'is required', isString: 'code must be a string' }),
        error('extra', { whitelistValidation: 'property extra should not exist' }),
      ]),
    ).toEqual(['code: is required', 'extra: is not allowed']);
  });

  it('names nested fields with dots', () => {
    expect(validationProblems([error('features', {}, [error('limit', { isInt: 'limit must be an integer number' })])])).toEqual([
      'features.limit: must be an integer number',
    ]);
  });
});

describe('Idempotency-Key rules', () => {
  it.each(['a', 'msg-1', 'a b', '~'.repeat(200), 'x:y/z?=&'])('accepts %p', (key) => {
    expect(idempotencyKeyProblem(key)).toBeNull();
  });

  it.each([
    [undefined, 'is required'],
    ['', 'is required'],
    ['k'.repeat(201), 'must be at most 200 characters'],
    [' lead', 'must be printable ASCII characters without leading or trailing spaces'],
    ['tab\there', 'must be printable ASCII characters without leading or trailing spaces'],
    ['ünï', 'must be printable ASCII characters without leading or trailing spaces'],
    [['a', 'b'], 'must be text'],
  ])('refuses %p: %s', (key, problem) => {
    expect(idempotencyKeyProblem(key)).toBe(problem);
  });

  it('keeps client keys in their own namespace of ledger keys', () => {
    expect(promptDebitKey('referral:welcome')).toBe('prompt:referral:welcome');
    expect(clientKeyOf(promptDebitKey('msg-1'))).toBe('msg-1');
  });
});

describe('wire helpers', () => {
  it('majorUnits prints minor units as SPEC writes prices', () => {
    expect(majorUnits(2500)).toBe(25);
    expect(majorUnits(249900)).toBe(2499);
    expect(majorUnits(999)).toBe(9.99);
    expect(JSON.stringify(majorUnits(11988))).toBe('119.88');
    expect(majorUnits(0)).toBe(0);
  });

  it('iso writes UTC ISO text and keeps null', () => {
    expect(iso(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(iso(null)).toBeNull();
  });
});

describe('loggedUrl', () => {
  it('never writes a capability token of the query to the log', () => {
    expect(loggedUrl('/local-checkout/cs_1?token=eyJ.abc.def')).toBe('/local-checkout/cs_1?token=[redacted]');
    expect(loggedUrl('/local-checkout/portal/c?a=1&TOKEN=x&b=2')).toBe('/local-checkout/portal/c?a=1&TOKEN=[redacted]&b=2');
    expect(loggedUrl('/api/profile?tokens=1')).toBe('/api/profile?tokens=1');
  });
});
