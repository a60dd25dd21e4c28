import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { EnsureProfileOnSignIn, type ProfileRepository } from '@kiln/domain';
import type { Observable } from 'rxjs';
import { unwrap } from '../error-mapping.js';
import { PROFILE_REPOSITORY } from '../tokens.js';
import type { MaybeAuthenticatedRequest } from './authenticated-request.js';
import { SKIP_PROFILE_ENSURE_KEY } from './skip-profile-ensure.decorator.js';

/**
 * Makes sure a signed-in caller has a profile before the handler runs (SPEC §4 "Profile
 * creation": free plan, referral code, name from the sign-up metadata, first allowance cycle).
 * Cheap on the common path: profiles are never removed, so once this process has seen a user's
 * profile it remembers that (a bounded set) and skips the lookup; otherwise one lookup by primary
 * key, and EnsureProfileOnSignIn only when the profile is missing. Public routes and routes marked
 * @SkipProfileEnsure() are left alone.
 */
@Injectable()
export class EnsureProfileInterceptor implements NestInterceptor {
  private static readonly MAX_REMEMBERED = 50_000;
  private readonly known = new Set<string>();

  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(PROFILE_REPOSITORY) private readonly profiles: ProfileRepository,
    @Inject(EnsureProfileOnSignIn) private readonly ensureProfile: EnsureProfileOnSignIn,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() === 'http') {
      const user = context.switchToHttp().getRequest<MaybeAuthenticatedRequest>().user;
      const skip = this.reflector.getAllAndOverride<boolean | undefined>(SKIP_PROFILE_ENSURE_KEY, [context.getHandler(), context.getClass()]);
      if (user && !skip && !this.known.has(user.userId)) {
        if ((await this.profiles.findById(user.userId)) === null) {
          unwrap(await this.ensureProfile.execute({ userId: user.userId, email: user.email ?? '', metadata: user.userMetadata }));
        }
        if (this.known.size >= EnsureProfileInterceptor.MAX_REMEMBERED) this.known.clear();
        this.known.add(user.userId);
      }
    }
    return next.handle();
  }
}
