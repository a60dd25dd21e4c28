import { SetMetadata } from '@nestjs/common';

/** Route metadata key: the route answers without a bearer token. */
export const IS_PUBLIC_KEY = 'isPublic';

/** Marks a route (or a whole controller) as reachable without signing in. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);

/** Route metadata key: a route outside /api that still needs a bearer token (SPEC's DELETE /database/{id}). */
export const REQUIRES_BEARER_KEY = 'requiresBearer';

/** Marks a controller outside /api as guarded like /api: the BearerAuthGuard checks its token. */
export const RequiresBearer = () => SetMetadata(REQUIRES_BEARER_KEY, true);
