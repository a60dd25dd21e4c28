import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { type AccessTokenError, type AccessTokenVerifier, missingAccessToken } from '@kiln/domain';
import type { Response } from 'express';
import { toException } from '../error-mapping.js';
import { ACCESS_TOKEN_VERIFIER } from '../tokens.js';
import type { MaybeAuthenticatedRequest } from './authenticated-request.js';
import { IS_PUBLIC_KEY, REQUIRES_BEARER_KEY } from './public.decorator.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  return BEARER.exec(header)?.[1] ?? null;
}

/** True when a route's declared path (controller + method) lies under /api. */
export function isApiRoute(controllerPath: unknown, handlerPath: unknown): boolean {
  const first = (p: unknown): string => (Array.isArray(p) ? String(p[0] ?? '') : typeof p === 'string' ? p : '');
  const full = `/${first(controllerPath)}/${first(handlerPath)}`.replace(/\/+/g, '/').toLowerCase();
  return full === '/api' || full.startsWith('/api/');
}

/**
 * The global guard (APP_GUARD). Every route under /api needs `Authorization: Bearer <token>`
 * unless it is marked @Public(); the token is checked by the AccessTokenVerifier port and its
 * claims are put on `request.user` (read them with @CurrentUser()). Routes outside /api
 * (/health, the GoTrue-compatible /auth/v1) are left to their controllers, except those marked
 * @RequiresBearer() (the SPEC's DELETE /database/{id}), which are checked the same way.
 *
 * Whether a route is under /api is decided from the route's declared path, not the request
 * URL, so case or encoding tricks in the URL (`/API/profile`) cannot skip the check.
 *
 * Failures are 401 (missing: `no_authorization`; bad signature, expired: `bad_jwt`; signed out:
 * `session_not_found`) with a `WWW-Authenticate: Bearer` header: a 401 tells the web client to
 * refresh its session and retry (docs/decisions.md).
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const routed = isApiRoute(Reflect.getMetadata(PATH_METADATA, context.getClass()), Reflect.getMetadata(PATH_METADATA, context.getHandler()));
    const requires = this.reflector.getAllAndOverride<boolean | undefined>(REQUIRES_BEARER_KEY, [context.getHandler(), context.getClass()]);
    if (!routed && !requires) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<MaybeAuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (token === null) throw this.reject(http.getResponse<Response>(), missingAccessToken());
    const verified = await this.verifier.verify(token);
    if (!verified.ok) throw this.reject(http.getResponse<Response>(), verified.error);
    request.user = verified.value;
    return true;
  }

  private reject(response: Response, error: AccessTokenError) {
    const challenge =
      error.code === 'AUTH.MISSING_TOKEN'
        ? 'Bearer realm="kiln"'
        : error.code === 'AUTH.SECOND_FACTOR_REQUIRED'
          ? 'Bearer realm="kiln", error="insufficient_scope"'
          : 'Bearer realm="kiln", error="invalid_token"';
    response.setHeader('WWW-Authenticate', challenge);
    return toException(error);
  }
}
