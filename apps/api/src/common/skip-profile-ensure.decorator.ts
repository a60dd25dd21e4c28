import { SetMetadata } from '@nestjs/common';

/** Route metadata key: do not create the caller's profile before the handler runs. */
export const SKIP_PROFILE_ENSURE_KEY = 'skipProfileEnsure';

/**
 * Marks an authenticated route whose handler manages the profile itself (`POST
 * /api/profile/ensure` creates it with a referral code; account deletion must not recreate it).
 */
export const SkipProfileEnsure = () => SetMetadata(SKIP_PROFILE_ENSURE_KEY, true);
