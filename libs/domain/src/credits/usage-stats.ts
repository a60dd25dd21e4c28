import { type Plan, isLimitlessPlan } from '../plans/plan.entity.js';
import { type Limit, limitToNumber } from '../shared/limit.js';
import { percentUsed } from '../shared/percent.js';
import { type AccountSummary, totalBalance } from './credit-account.js';

/** SPEC §3 "Usage stats", camel-cased, with the derived values computed once, here. */
export interface UsageStats {
  readonly promptsTotal: number | 'unlimited';
  readonly promptsUsed: number;
  readonly promptsPercentUsed: number;
  readonly privateProjectsCount: number;
  /** -1 means unlimited. */
  readonly privateProjectsLimit: number;
  readonly isUnlimitedPrivateProjects: boolean;
  readonly privateProjectsPercentUsed: number;
  readonly publishedProjectsCount: number;
  readonly publishedProjectsLimit: number | 'unlimited';
  readonly isUnlimitedPublishedProjects: boolean;
  readonly publishedProjectsPercentUsed: number;
  readonly isUnlimitedPrompts: boolean;
  /** credits + referral_credits + extra_credits (SPEC §9). */
  readonly creditsRemaining: number;
  readonly creditsFromPlan: number;
  readonly creditsFromReferrals: number;
  readonly creditsFromAddOns: number;
  /** The plan's allowance per cycle. */
  readonly promptsFromPlan: number | 'unlimited';
  /** Credits ever earned through referrals (25 per referral). */
  readonly promptsFromReferrals: number;
  readonly isLimitlessPlan: boolean;
  readonly cycleStart: Date | null;
  readonly cycleEnd: Date | null;
}

const wireLimit = (limit: Limit): number | 'unlimited' => (limit.kind === 'unlimited' ? 'unlimited' : limit.value);

export function usageStats(input: {
  readonly plan: Plan;
  readonly account: AccountSummary;
  readonly privateProjectsCount: number;
  readonly publishedProjectsCount: number;
}): UsageStats {
  const { plan, account } = input;
  const features = plan.features;
  const promptsFromPlan: number | 'unlimited' =
    account.cycle === null ? wireLimit(features.promptsPerMonth) : (account.cycle.allowance ?? 'unlimited');
  const publishedLimit = wireLimit(features.publishedProjects);
  const privateLimit = limitToNumber(features.privateProjects);
  return {
    promptsTotal: promptsFromPlan,
    promptsUsed: account.cycleUsage,
    promptsPercentUsed: percentUsed(account.cycleUsage, promptsFromPlan),
    privateProjectsCount: input.privateProjectsCount,
    privateProjectsLimit: privateLimit,
    isUnlimitedPrivateProjects: features.privateProjects.kind === 'unlimited',
    privateProjectsPercentUsed: percentUsed(input.privateProjectsCount, privateLimit < 0 ? 'unlimited' : privateLimit),
    publishedProjectsCount: input.publishedProjectsCount,
    publishedProjectsLimit: publishedLimit,
    isUnlimitedPublishedProjects: features.publishedProjects.kind === 'unlimited',
    publishedProjectsPercentUsed: percentUsed(input.publishedProjectsCount, publishedLimit),
    isUnlimitedPrompts: promptsFromPlan === 'unlimited',
    creditsRemaining: totalBalance(account.balances),
    creditsFromPlan: account.balances.monthly,
    creditsFromReferrals: account.balances.referral,
    creditsFromAddOns: account.balances.addon,
    promptsFromPlan,
    promptsFromReferrals: account.referralGranted,
    isLimitlessPlan: isLimitlessPlan(plan),
    cycleStart: account.cycle?.start ?? null,
    cycleEnd: account.cycle?.end ?? null,
  };
}
