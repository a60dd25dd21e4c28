import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { AccessClaims } from '@kiln/domain';
import type { MaybeAuthenticatedRequest } from './authenticated-request.js';

/**
 * The verified claims of the caller (`AccessClaims`), put on the request by the BearerAuthGuard.
 * Only meaningful on routes that are not @Public(); using it on one is a bug and fails loudly.
 */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AccessClaims => {
  const request = context.switchToHttp().getRequest<MaybeAuthenticatedRequest>();
  if (!request.user) throw new Error('@CurrentUser() used on a route the BearerAuthGuard did not authenticate');
  return request.user;
});
