import { type Plan, isPaidPlan } from '../plans/plan.entity.js';
import type { Profile } from '../profiles/profile.entity.js';

/**
 * Credits a plan grants per allowance cycle; null means unlimited prompts. The pro
 * multiplier (1x, 2x, 3x) scales paid allowances; the free plan is always 1x.
 */
export function monthlyAllowance(plan: Plan, profile: Pick<Profile, 'proMultiplier'>): number | null {
  const prompts = plan.features.promptsPerMonth;
  if (prompts.kind === 'unlimited') return null;
  return prompts.value * (isPaidPlan(plan) ? profile.proMultiplier : 1);
}
