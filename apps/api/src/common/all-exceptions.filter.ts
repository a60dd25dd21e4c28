import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '@kiln/adapters';
import type { Response } from 'express';
import {
  ApiErrorException,
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  type ErrorBody,
  INTERNAL_ERROR,
  VALIDATION_FAILED,
  codeForStatus,
} from '../error-mapping.js';

/** Errors thrown by Express's body parser (bad JSON, too large, wrong charset) before Nest sees the request. */
interface BodyParserError {
  readonly type: string;
  readonly status: number;
  readonly message: string;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  const e = error as Partial<BodyParserError> | null;
  return typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
}

const BODY_PARSER_DETAIL: Readonly<Record<string, string>> = {
  'entity.parse.failed': 'body: is not valid JSON',
  'entity.too.large': 'body: is too large',
  'encoding.unsupported': 'body: has an unsupported encoding',
  'charset.unsupported': 'body: has an unsupported charset',
};

/**
 * Writes every error reply as `{ code, detail, ...data }`. Mapped domain errors (error-mapping.ts)
 * and HTTP errors whose body carries a string `code` pass through; Nest's own HTTP errors (404
 * unknown route, 413…) become `{ code: <status name>, detail: <message> }`; a database that
 * cannot be reached (isDatabaseUnavailable: refused, timed out, shut down, connection lost) is
 * 503 `DATABASE_UNAVAILABLE` with `Retry-After`, on every route; anything else is a bug or an
 * infrastructure failure: logged with its stack, answered 500
 * `{ code: 'INTERNAL', detail: 'Internal Server Error' }` without internals.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body } = this.reply(exception);
    if (response.headersSent) return;
    if (body === DATABASE_UNAVAILABLE.body) response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    response.status(status).json(body);
  }

  private reply(exception: unknown): { status: number; body: ErrorBody } {
    if (exception instanceof ApiErrorException) return exception.httpError;
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
      return DATABASE_UNAVAILABLE;
    }
    // Nest wraps the body parser's errors in an HttpException whose cause is the original.
    const parserError = isBodyParserError(exception)
      ? exception
      : exception instanceof HttpException && isBodyParserError(exception.cause)
        ? exception.cause
        : null;
    if (parserError) {
      const code = parserError.status === 400 ? VALIDATION_FAILED : codeForStatus(parserError.status);
      return { status: parserError.status, body: { code, detail: BODY_PARSER_DETAIL[parserError.type] ?? parserError.message } };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 500) {
        this.logger.error(exception.message, exception.stack);
        return INTERNAL_ERROR;
      }
      return { status, body: normalise(status, exception.getResponse()) };
    }
    const error = exception instanceof Error ? exception : new Error(String(exception));
    this.logger.error(`${error.name}: ${error.message}`, error.stack);
    return INTERNAL_ERROR;
  }
}

function normalise(status: number, response: string | object): ErrorBody {
  if (typeof response === 'string') return { code: codeForStatus(status), detail: response };
  const body = response as Record<string, unknown>;
  // A body that names its own code was shaped on purpose (ours, or GoTrue's `{ code, message }`
  // from /auth/v1, which auth-js reads): pass it through untouched.
  if (typeof body['code'] === 'string') return body as ErrorBody;
  const message = body['message'];
  const detail = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : codeForStatus(status);
  return { code: codeForStatus(status), detail };
}
