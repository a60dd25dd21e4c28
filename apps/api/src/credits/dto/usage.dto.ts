import { ApiProperty } from '@nestjs/swagger';
import type { UsageStats } from '@kiln/domain';
import { iso } from '../../common/wire.js';

const countOrUnlimited = { oneOf: [{ type: 'integer' }, { type: 'string', enum: ['unlimited'] }] };

/** SPEC §3 "Usage stats", snake_cased, with the derived values. */
export class UsageStatsResponse {
  @ApiProperty({ ...countOrUnlimited, description: "The cycle's allowance, or 'unlimited'" })
  prompts_total!: number | 'unlimited';

  @ApiProperty({ description: 'Prompts charged in the current cycle, net of refunds' })
  prompts_used!: number;

  @ApiProperty({ description: 'Rounded, capped at 100; 0 when unlimited' })
  prompts_percent_used!: number;

  @ApiProperty()
  private_projects_count!: number;

  @ApiProperty({ description: '-1 means unlimited' })
  private_projects_limit!: number;

  @ApiProperty()
  is_unlimited_private_projects!: boolean;

  @ApiProperty()
  private_projects_percent_used!: number;

  @ApiProperty()
  published_projects_count!: number;

  @ApiProperty(countOrUnlimited)
  published_projects_limit!: number | 'unlimited';

  @ApiProperty()
  is_unlimited_published_projects!: boolean;

  @ApiProperty()
  published_projects_percent_used!: number;

  @ApiProperty()
  is_unlimited_prompts!: boolean;

  @ApiProperty({ description: 'credits + referral_credits + extra_credits' })
  credits_remaining!: number;

  @ApiProperty({ description: 'Monthly allowance left (profile credits)' })
  credits_from_plan!: number;

  @ApiProperty({ description: 'Referral credits left' })
  credits_from_referrals!: number;

  @ApiProperty({ description: 'Add-on credits left' })
  credits_from_add_ons!: number;

  @ApiProperty({ ...countOrUnlimited, description: "The plan's allowance per cycle" })
  prompts_from_plan!: number | 'unlimited';

  @ApiProperty({ description: 'Credits ever earned through referrals' })
  prompts_from_referrals!: number;

  @ApiProperty()
  is_limitless_plan!: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  cycle_start!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  cycle_end!: string | null;

  static from(s: UsageStats): UsageStatsResponse {
    return {
      prompts_total: s.promptsTotal,
      prompts_used: s.promptsUsed,
      prompts_percent_used: s.promptsPercentUsed,
      private_projects_count: s.privateProjectsCount,
      private_projects_limit: s.privateProjectsLimit,
      is_unlimited_private_projects: s.isUnlimitedPrivateProjects,
      private_projects_percent_used: s.privateProjectsPercentUsed,
      published_projects_count: s.publishedProjectsCount,
      published_projects_limit: s.publishedProjectsLimit,
      is_unlimited_published_projects: s.isUnlimitedPublishedProjects,
      published_projects_percent_used: s.publishedProjectsPercentUsed,
      is_unlimited_prompts: s.isUnlimitedPrompts,
      credits_remaining: s.creditsRemaining,
      credits_from_plan: s.creditsFromPlan,
      credits_from_referrals: s.creditsFromReferrals,
      credits_from_add_ons: s.creditsFromAddOns,
      prompts_from_plan: s.promptsFromPlan,
      prompts_from_referrals: s.promptsFromReferrals,
      is_limitless_plan: s.isLimitlessPlan,
      cycle_start: iso(s.cycleStart),
      cycle_end: iso(s.cycleEnd),
    };
  }
}
