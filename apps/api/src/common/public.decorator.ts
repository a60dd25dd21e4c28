import { SetMetadata } from '@nestjs/common';

/** Route metadata key: the route answers without a bearer token. */
export const IS_PUBLIC_KEY = 'isPublic';

/** Marks a route (or a whole controller) as reachable without signing in. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
