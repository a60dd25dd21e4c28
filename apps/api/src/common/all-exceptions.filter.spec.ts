import { describe, expect, it } from '@jest/globals';
import { type ArgumentsHost, BadRequestException, HttpException, InternalServerErrorException, NotFoundException } from '@nestjs/common';
import { creditLimitReached } from '@kiln/domain';
import { toException } from '../error-mapping.js';
import { AllExceptionsFilter } from './all-exceptions.filter.js';

/** Runs the filter on an exception and returns what it wrote. */
function reply(exception: unknown): { status: number; body: unknown } {
  const written = { status: 0, body: undefined as unknown };
  const response = {
    headersSent: false,
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
  (filter as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
  filter.catch(exception, host);
  return written;
}

describe('AllExceptionsFilter', () => {
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
