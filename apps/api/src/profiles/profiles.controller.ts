import { Body, Controller, Get, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  type Currency,
  EnsureProfileOnSignIn,
  type EnsuredProfile,
  GrantMonthlyAllowance,
  type ProfileRepository,
  profileNotFound, UpdateProfileDetails
} from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { SkipProfileEnsure } from '../common/skip-profile-ensure.decorator.js';
import { toException, unwrap } from '../error-mapping.js';
import { PROFILE_REPOSITORY } from '../tokens.js';
import { EnsureProfileDto, EnsureProfileResponse, ProfileResponse, type ReferralOutcome, UpdateProfileDto } from './dto/profile.dto.js';

@ApiTags('profile')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/profile')
export class ProfilesController {
  constructor(
    @Inject(EnsureProfileOnSignIn) private readonly ensureProfile: EnsureProfileOnSignIn,
    @Inject(GrantMonthlyAllowance) private readonly allowance: GrantMonthlyAllowance,
    @Inject(UpdateProfileDetails) private readonly updateDetails: UpdateProfileDetails,
    @Inject(PROFILE_REPOSITORY) private readonly profiles: ProfileRepository,
  ) {}

  /** The caller's profile; the credit fields are the ledger's balances after any due monthly reset. */
  @Get()
  @ApiOperation({ summary: "The caller's profile" })
  @ApiOkResponse({ type: ProfileResponse })
  async get(@CurrentUser() user: AccessClaims): Promise<ProfileResponse> {
    unwrap(await this.allowance.execute({ userId: user.userId }));
    const profile = await this.profiles.findById(user.userId);
    if (!profile) throw toException(profileNotFound(user.userId));
    return ProfileResponse.from(profile);
  }

  /** Changes name, date_of_birth, organization, role or preferred_currency; other fields are refused. */
  @Patch()
  @ApiOperation({ summary: 'Edit name, date_of_birth, organization, role, preferred_currency' })
  @ApiOkResponse({ type: ProfileResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  async update(@CurrentUser() user: AccessClaims, @Body() body: UpdateProfileDto): Promise<ProfileResponse> {
    const profile = await this.updateDetails.execute({
      userId: user.userId,
      details: {
        name: body.name,
        dateOfBirth: body.date_of_birth,
        organization: body.organization === undefined ? undefined : body.organization === '' ? null : body.organization,
        role: body.role,
        preferredCurrency: body.preferred_currency as Currency | undefined,
      },
    });
    return ProfileResponse.from(unwrap(profile));
  }

  /**
   * SPEC §4 "Profile creation", called by the web after sign-in: creates the profile if missing
   * and applies the referral code kept from a ?ref= link. A refused code does not fail the call;
   * `referral` says what happened (applied → show 'Welcome Bonus!').
   */
  @Post('ensure')
  @ApiOperation({ summary: 'Create the profile after sign-in and apply a stored referral code' })
  @HttpCode(200)
  @SkipProfileEnsure()
  @ApiOkResponse({ type: EnsureProfileResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'REFERRALS.CODE_GENERATION_FAILED' })
  async ensure(@CurrentUser() user: AccessClaims, @Body() body: EnsureProfileDto): Promise<EnsureProfileResponse> {
    const code = body.referral_code?.trim() || null;
    const ensured = unwrap(
      await this.ensureProfile.execute({ userId: user.userId, email: user.email ?? '', metadata: user.userMetadata, storedReferralCode: code }),
    );
    return { profile: ProfileResponse.from(ensured.profile), created: ensured.created, referral: referralOutcome(ensured.referral) };
  }
}

function referralOutcome(referral: EnsuredProfile['referral']): ReferralOutcome | null {
  if (referral === null) return null;
  if (referral.ok) return { applied: true, bonus: referral.value.bonus };
  return { applied: false, code: referral.error.code, detail: referral.error.message };
}
