import { describe, expect, it } from '@jest/globals';
import { type ArgumentsHost, BadRequestException, HttpException, InternalServerErrorException, NotFoundException } from '@nestjs/common';
import { creditLimitReached } from '@kiln/domain';
import { toException } from '../error-mapping.js';
import { AllExceptionsFilter } from './all-exceptions.filter.js';

/** Runs the filter on an exception and returns what it wrote. */
function reply(exception: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
  const written: { status: number; body: unknown; headers?: Record<string, string> } = { status: 0, body: undefined as unknown };
  const response = {
    headersSent: false,
    setHeader(name: string, value: string) {
      written.headers = { ...written.headers, [name]: value };
    },
    status(code: number) {
      written.status = code;
      return this;
    },
    json(body: unknown) {
      written.body = body;
      return this;
    },
  };
  const host = { getType: () => 'http', switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
  const filter = new AllExceptionsFilter();
  (filter as unknown as { logger: { error: () => void; warn: () => void } }).logger = { error: () => undefined, warn: () => undefined };
  filter.catch(exception, host);
  return written;
}

describe('AllExceptionsFilter', () => {
  it('answers 503 DATABASE_UNAVAILABLE with Retry-After when the database cannot be reached, and 500 for other failures', () => {
    // What pg answers on a session the server ends (TypeORM wraps it as driverError).
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });
    const wrapped = Object.assign(new Error('Query failed'), { driverError: terminated });
    for (const error of [wrapped, new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect')]) {
      expect(reply(error)).toEqual({
        status: 503,
        body: { code: 'DATABASE_UNAVAILABLE', detail: expect.stringContaining('try again') },
        headers: { 'Retry-After': '5' },
      });
    }
    const syntax = Object.assign(new Error('Query failed'), { driverError: Object.assign(new Error('syntax error'), { code: '42601', severity: 'ERROR' }) });
    expect(reply(syntax)).toEqual({ status: 500, body: { code: 'INTERNAL', detail: 'Internal Server Error' } });
    // A refused connection that did not come from the database pool is not an outage of it.
    expect(reply(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED', syscall: 'connect' })).status).toBe(500);
  });

  it('writes a mapped domain error as is', () => {
    expect(reply(toException(creditLimitReached(0, 1)))).toEqual({
      status: 402,
      body: expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', limit_type: 'credit' }),
    });
  });

  it("turns Nest's HTTP errors into { code, detail }", () => {
    expect(reply(new NotFoundException('Cannot GET /x'))).toEqual({ status: 404, body: { code: 'NOT_FOUND', detail: 'Cannot GET /x' } });
    expect(reply(new BadRequestException(['a is bad', 'b is bad']))).toEqual({
      status: 400,
      body: { code: 'BAD_REQUEST', detail: 'a is bad; b is bad' },
    });
  });

  it('passes through a body that carries its own code (GoTrue-style errors of /auth/v1)', () => {
    const body = { code: 'invalid_credentials', message: 'Invalid login credentials' };
    expect(reply(new HttpException(body, 400))).toEqual({ status: 400, body });
  });

  it('maps body-parser errors wrapped by Nest to 400 VALIDATION_FAILED / 413', () => {
    const parse = Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400, type: 'entity.parse.failed' });
    expect(reply(new BadRequestException(parse.message, { cause: parse }))).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', detail: 'body: is not valid JSON' },
    });
    const tooLarge = Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' });
    expect(reply(new HttpException(tooLarge.message, 413, { cause: tooLarge }))).toEqual({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE', detail: 'body: is too large' },
    });
  });

  it('answers anything else 500 INTERNAL without internals', () => {
    const internal = { status: 500, body: { code: 'INTERNAL', detail: 'Internal Server Error' } };
    expect(reply(new Error('password=hunter2 in a stack'))).toEqual(internal);
    expect(reply('a thrown string')).toEqual(internal);
    expect(reply(new InternalServerErrorException('db exploded'))).toEqual(internal);
    expect(reply(toException({ code: 'SOMETHING.UNMAPPED', message: 'x' }))).toEqual(internal);
  });
});
