import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  ApplyReferral,
  type CreditLedger,
  type ProfileRepository,
  type ReferralCode,
  profileNotFound,
  referralGrantKeys,
  shareLink,
} from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import type { AppConfig } from '../config.js';
import { toException, unwrap } from '../error-mapping.js';
import { APP_CONFIG, CREDIT_LEDGER, PROFILE_REPOSITORY } from '../tokens.js';
import { AppliedReferralResponse, ApplyReferralDto, ReferralStatsResponse } from './dto/referrals.dto.js';

/** Ledger keys of the grants a referrer receives, one per friend (ApplyReferral's referralGrantKeys). */
const FRIEND_GRANT_PREFIX = referralGrantKeys('').referrer;

@ApiTags('referrals')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@Controller('api/referrals')
export class ReferralsController {
  constructor(
    @Inject(ApplyReferral) private readonly applyReferral: ApplyReferral,
    @Inject(PROFILE_REPOSITORY) private readonly profiles: ProfileRepository,
    @Inject(CREDIT_LEDGER) private readonly ledger: CreditLedger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Applies a friend's code to the caller (once, ever): both sides get 25 referral credits. */
  @Post('apply')
  @ApiOperation({ summary: "Apply a friend's referral code" })
  @HttpCode(200)
  @ApiOkResponse({ type: AppliedReferralResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, REFERRALS.INVALID_CODE, REFERRALS.SELF_REFERRAL' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'REFERRALS.UNKNOWN_CODE' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'REFERRALS.ALREADY_REFERRED, REFERRALS.CIRCULAR' })
  async apply(@CurrentUser() user: AccessClaims, @Body() body: ApplyReferralDto): Promise<AppliedReferralResponse> {
    const applied = unwrap(await this.applyReferral.execute({ refereeId: user.userId, code: body.code }));
    const { balances } = await this.ledger.summary(user.userId);
    return { applied: true, bonus: applied.bonus, referral_credits: balances.referral };
  }

  /** The caller's code, share link and what referring has earned them. */
  @Get()
  @ApiOperation({ summary: "The caller's referral code, share link and earnings" })
  @ApiOkResponse({ type: ReferralStatsResponse })
  async stats(@CurrentUser() user: AccessClaims): Promise<ReferralStatsResponse> {
    const profile = await this.profiles.findById(user.userId);
    if (!profile) throw toException(profileNotFound(user.userId));
    const [referredCount, entries] = await Promise.all([this.profiles.countReferredBy(profile.id), this.ledger.entries(profile.id)]);
    const creditsEarned = entries
      .filter((e) => e.kind === 'grant' && e.reason === 'referral_bonus' && e.key.startsWith(FRIEND_GRANT_PREFIX))
      .reduce((sum, e) => sum + (e.kind === 'grant' ? e.amount : 0), 0);
    return {
      referral_code: profile.referralCode,
      share_link: shareLink(this.config.webOrigins[0] ?? '', profile.referralCode as ReferralCode),
      referred_count: referredCount,
      credits_earned: creditsEarned,
    };
  }
}
