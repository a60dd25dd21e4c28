import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { API_VERSION_HEADER, negotiateApiVersion } from './api-version.js';
import { GOTRUE_CORS_OPTIONS } from './auth.tokens.js';

export interface GoTrueCorsOptions {
  /** Origins allowed to call /auth/v1 from a browser. */
  readonly origins: readonly string[];
  /** Development: allow any origin by reflecting it. */
  readonly reflectAnyOrigin: boolean;
}

/** What auth-js sends (GOTRUE.md "Errors"). */
export const GOTRUE_ALLOWED_HEADERS = ['authorization', 'apikey', 'x-client-info', 'x-supabase-api-version', 'content-type'];
/** auth-js must be able to read the version header to read error codes; Retry-After helps on 429. */
export const GOTRUE_EXPOSED_HEADERS = [API_VERSION_HEADER, 'x-sb-error-code', 'Retry-After'];
export const GOTRUE_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'];

/**
 * CORS for /auth/v1 as GoTrue answers it, plus the API version echo. Preflights from an
 * allowed origin get 204 with the allowed methods and headers; from any other origin 204
 * without CORS headers (the browser then blocks the call). No credentials: auth-js sends
 * tokens in headers, never cookies.
 */
export function goTrueCors(options: GoTrueCorsOptions) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const version = negotiateApiVersion(req.headers[API_VERSION_HEADER.toLowerCase()]);
    if (version) res.setHeader(API_VERSION_HEADER, version);
    const origin = req.headers.origin;
    const allowed = typeof origin === 'string' && (options.reflectAnyOrigin || options.origins.includes(origin));
    res.vary('Origin');
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', GOTRUE_EXPOSED_HEADERS.join(', '));
    }
    if (req.method === 'OPTIONS') {
      if (allowed) {
        res.setHeader('Access-Control-Allow-Methods', GOTRUE_ALLOWED_METHODS.join(', '));
        res.setHeader('Access-Control-Allow-Headers', GOTRUE_ALLOWED_HEADERS.join(', '));
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.status(204).end();
      return;
    }
    next();
  };
}

/** goTrueCors as Nest middleware, applied by AuthModule to /auth/v1. */
@Injectable()
export class GoTrueCorsMiddleware implements NestMiddleware {
  private readonly handle: ReturnType<typeof goTrueCors>;

  constructor(@Inject(GOTRUE_CORS_OPTIONS) options: GoTrueCorsOptions) {
    this.handle = goTrueCors(options);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    this.handle(req, res, next);
  }
}
