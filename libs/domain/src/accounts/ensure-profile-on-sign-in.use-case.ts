import type { GrantMonthlyAllowance } from '../credits/grant-monthly-allowance.use-case.js';
import type { ApplyReferral, ApplyReferralError, AppliedReferral } from '../referrals/apply-referral.use-case.js';
import type { GenerateReferralCode } from '../referrals/generate-referral-code.use-case.js';
import type { CodeGenerationFailed } from '../referrals/referral.errors.js';
import { type AccountActivityListener, NO_ACCOUNT_ACTIVITY_LISTENER } from '../shared/account-activity.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, ok } from '../shared/result.js';
import { type Profile, type SignUpMetadata, createProfile } from '../profiles/profile.entity.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';

export interface EnsureProfileOnSignInInput {
  readonly userId: string;
  readonly email: string;
  readonly metadata?: SignUpMetadata | null;
  /** A referral code the browser kept from a `?ref=` link, if any. */
  readonly storedReferralCode?: string | null;
}

export interface EnsuredProfile {
  readonly profile: Profile;
  readonly created: boolean;
  /**
   * What became of the stored referral code: applied (show the Welcome Bonus toast), refused
   * (with the reason), or null when there was none. Either way the browser clears its copy.
   */
  readonly referral: Result<AppliedReferral, ApplyReferralError> | null;
}

/**
 * SPEC §4 "Profile creation": a signed-in user without a profile gets one (plan free, a fresh
 * referral code, name from the sign-up metadata) and the first allowance cycle; a stored
 * referral code is then applied. Existing profiles get their sign-in time updated. A refused
 * referral does not fail the sign-in.
 */
export class EnsureProfileOnSignIn {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly referralCodes: GenerateReferralCode,
    private readonly allowance: GrantMonthlyAllowance,
    private readonly applyReferral: ApplyReferral,
    private readonly clock: Clock,
    /** Told of a sign-up (a profile created here), after the referral: marketing's new contact. */
    private readonly activity: AccountActivityListener = NO_ACCOUNT_ACTIVITY_LISTENER,
  ) {}

  async execute(input: EnsureProfileOnSignInInput): Promise<Result<EnsuredProfile, CodeGenerationFailed>> {
    const now = this.clock.now();
    let profile = await this.profiles.findById(input.userId);
    let created = false;
    if (profile) {
      profile = { ...profile, lastSignInAt: now, updatedAt: now };
      await this.profiles.update(profile);
    } else {
      const code = await this.referralCodes.execute();
      if (!code.ok) return code;
      const fresh = createProfile({ id: input.userId, email: input.email, metadata: input.metadata, referralCode: code.value }, now);
      ({ profile, created } = await this.profiles.insertIfAbsent(fresh));
    }
    await this.allowance.execute({ userId: profile.id });
    const referral = input.storedReferralCode
      ? await this.applyReferral.execute({ refereeId: profile.id, code: input.storedReferralCode })
      : null;
    const stored = (await this.profiles.findById(profile.id)) ?? profile;
    if (created) await this.activity.record({ userId: profile.id, kind: 'signed_up', at: now });
    return ok({ profile: stored, created, referral });
  }
}
