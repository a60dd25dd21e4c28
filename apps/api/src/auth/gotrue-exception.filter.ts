import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '@kiln/adapters';
import type { Request, Response } from 'express';
import { GoTrueHttpError, badJson, databaseUnavailable, unexpectedFailure, writeGoTrueError } from './gotrue-errors.js';

/** Errors Express's body parser raises (bad JSON, too large, bad charset). */
export function isBodyParserError(error: unknown): error is { type: string; status: number; message: string } {
  const e = error as { type?: unknown; status?: unknown } | null;
  return typeof e === 'object' && e !== null && typeof e.type === 'string' && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
}

/** Any error of an /auth/v1 request as GoTrue would answer it. */
export function toGoTrueError(exception: unknown, logger: Logger): GoTrueHttpError {
  if (exception instanceof GoTrueHttpError) return exception;
  if (isBodyParserError(exception)) {
    if (exception.type === 'entity.parse.failed') return badJson(exception.message);
    if (exception.type === 'entity.too.large') return new GoTrueHttpError(413, 'request_too_large', 'Request body is too large');
    return new GoTrueHttpError(exception.status, 'validation_failed', exception.message);
  }
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    const status = exception.getStatus();
    const code = status === 404 ? 'not_found' : status === 405 ? 'method_not_allowed' : status === 401 ? 'no_authorization' : 'validation_failed';
    return new GoTrueHttpError(status, code, exception.message);
  }
  const error = exception instanceof Error ? exception : new Error(String(exception));
  if (isDatabaseUnavailable(exception)) {
    logger.warn(`Database unavailable: ${error.message}`);
    return databaseUnavailable();
  }
  logger.error(`${error.name}: ${error.message}`, error.stack);
  return unexpectedFailure();
}

/** Scoped to the /auth/v1 controller: every error leaves in GoTrue's shape (never the /api one). */
@Catch()
export class GoTrueExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('GoTrue');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    if (response.headersSent) return;
    writeGoTrueError(http.getRequest<Request>(), response, toGoTrueError(exception, this.logger));
  }
}
