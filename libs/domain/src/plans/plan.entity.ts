import { type Limit, type RawLimit, UNLIMITED, limited, parseLimit } from '../shared/limit.js';

/** The plans SPEC §3 names, plus the upper tiers a later area names (allowances from config). */
export const STANDARD_PLAN_IDS = ['free', 'pro_monthly', 'pro_annual'] as const;
export const UPPER_TIER_IDS = ['basic', 'starter', 'premium'] as const;
export type StandardPlanId = (typeof STANDARD_PLAN_IDS)[number];
export type UpperTierId = (typeof UPPER_TIER_IDS)[number];
export type PlanId = StandardPlanId | UpperTierId;

export type BillingInterval = 'monthly' | 'annual';
export type SupportLevel = 'basic' | 'priority_email' | 'dedicated';

export interface PlanFeatures {
  readonly promptsPerMonth: Limit;
  readonly privateProjects: Limit;
  readonly publishedProjects: Limit;
  readonly publicProjects: Limit;
  readonly teamMembers: Limit;
  readonly supportLevel: SupportLevel;
}

/** Prices in integer minor units (cents, paise) for one billing period of the plan. */
export interface PlanPrices {
  readonly USD: number;
  readonly INR: number;
}

export interface Plan {
  readonly id: PlanId;
  readonly name: string;
  readonly description: string;
  /** null for the free plan: nothing is billed. */
  readonly interval: BillingInterval | null;
  readonly prices: PlanPrices;
  readonly features: PlanFeatures;
}

/**
 * The free plan's private-project allowance. SPEC does not give it; a finite number is what
 * makes the "project" limit type of the upgrade dialog reachable (docs/decisions.md).
 */
export const FREE_PRIVATE_PROJECTS = 3;

const ZERO = limited(0);
const plan = (p: Plan): Plan => Object.freeze(p);

export const FREE_PLAN: Plan = plan({
  id: 'free',
  name: 'Free',
  description: 'Try Kiln: 5 prompts a month.',
  interval: null,
  prices: { USD: 0, INR: 0 },
  features: {
    promptsPerMonth: limited(5),
    privateProjects: limited(FREE_PRIVATE_PROJECTS),
    publishedProjects: ZERO,
    publicProjects: ZERO,
    teamMembers: ZERO,
    supportLevel: 'basic',
  },
});

const PRO_FEATURES: PlanFeatures = Object.freeze<PlanFeatures>({
  promptsPerMonth: limited(25),
  privateProjects: UNLIMITED,
  publishedProjects: UNLIMITED,
  publicProjects: ZERO,
  teamMembers: ZERO,
  supportLevel: 'priority_email',
});

export const PRO_MONTHLY_PLAN: Plan = plan({
  id: 'pro_monthly',
  name: 'Pro Monthly',
  description: '25 prompts a month, unlimited private and published projects.',
  interval: 'monthly',
  prices: { USD: 25_00, INR: 2499_00 },
  features: PRO_FEATURES,
});

export const PRO_ANNUAL_PLAN: Plan = plan({
  id: 'pro_annual',
  name: 'Pro Annual',
  description: '25 prompts a month, billed yearly.',
  interval: 'annual',
  prices: { USD: 240_00, INR: 24000_00 },
  features: PRO_FEATURES,
});

/** The wire/config shape of an upper tier (basic, starter, premium): allowances are configured. */
export interface UpperTierConfig {
  readonly id: UpperTierId;
  readonly name: string;
  readonly description?: string;
  readonly interval: BillingInterval;
  readonly priceUsdMinor: number;
  readonly priceInrMinor: number;
  readonly promptsPerMonth: RawLimit;
  readonly privateProjects: RawLimit;
  readonly publishedProjects: RawLimit;
  readonly supportLevel?: SupportLevel;
}

export function upperTierPlan(config: UpperTierConfig): Plan {
  return plan({
    id: config.id,
    name: config.name,
    description: config.description ?? '',
    interval: config.interval,
    prices: { USD: config.priceUsdMinor, INR: config.priceInrMinor },
    features: {
      promptsPerMonth: parseLimit(config.promptsPerMonth),
      privateProjects: parseLimit(config.privateProjects),
      publishedProjects: parseLimit(config.publishedProjects),
      publicProjects: ZERO,
      teamMembers: ZERO,
      supportLevel: config.supportLevel ?? 'priority_email',
    },
  });
}

/** SPEC §9: billing interval label is "year" for annual, else "month". */
export function billingIntervalLabel(interval: BillingInterval | null | undefined): 'year' | 'month' {
  return interval === 'annual' ? 'year' : 'month';
}

/** A plan is limitless when its prompts are unlimited (View Plans is hidden then, SPEC §2). */
export function isLimitlessPlan(plan: Plan): boolean {
  return plan.features.promptsPerMonth.kind === 'unlimited';
}

export function isPaidPlan(plan: Plan): boolean {
  return plan.interval !== null;
}
