import type { AccessClaims } from '@kiln/domain';
import type { Request } from 'express';

/** A request that passed the BearerAuthGuard: `user` holds the verified token's claims. */
export interface AuthenticatedRequest extends Request {
  user: AccessClaims;
}

/** Any request as the guard sees it (claims not attached yet). */
export type MaybeAuthenticatedRequest = Request & { user?: AccessClaims };
