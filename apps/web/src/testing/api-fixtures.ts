// API replies as the server sends them (apps/api DTOs), for view-model tests and screenshots.
import type { PlanDto } from '../api/plans.api';
import type { ProfileDto } from '../app/ports';
import type { ReferralStatsDto } from '../api/referrals.api';
import type { UsageStatsDto } from '../api/usage.api';

export const FREE_PLAN_DTO: PlanDto = {
  id: 'free',
  name: 'Free',
  plan_id: null,
  description: 'Try Kiln: 5 prompts a month.',
  price: 0,
  price_inr: 0,
  annual_price: 0,
  annual_price_inr: 0,
  currency: 'USD',
  billing_interval: null,
  interval_label: 'month',
  features: {
    prompts_per_month: 5,
    private_projects: 3,
    published_projects: 0,
    public_projects: 0,
    team_members: 0,
    support_level: 'basic',
  },
};

const PRO_FEATURES = {
  prompts_per_month: 25,
  private_projects: 'unlimited',
  published_projects: 'unlimited',
  public_projects: 0,
  team_members: 0,
  support_level: 'priority_email',
} as const;

export const PRO_MONTHLY_DTO: PlanDto = {
  id: 'pro_monthly',
  name: 'Pro Monthly',
  plan_id: null,
  description: '25 prompts a month, unlimited private and published projects.',
  price: 25,
  price_inr: 2499,
  annual_price: 300,
  annual_price_inr: 29988,
  currency: 'USD',
  billing_interval: 'monthly',
  interval_label: 'month',
  features: PRO_FEATURES,
};

export const PRO_ANNUAL_DTO: PlanDto = {
  id: 'pro_annual',
  name: 'Pro Annual',
  plan_id: null,
  description: '25 prompts a month, billed yearly.',
  price: 240,
  price_inr: 24000,
  annual_price: 240,
  annual_price_inr: 24000,
  currency: 'USD',
  billing_interval: 'annual',
  interval_label: 'year',
  features: PRO_FEATURES,
};

export const PLAN_DTOS: readonly PlanDto[] = [FREE_PLAN_DTO, PRO_MONTHLY_DTO, PRO_ANNUAL_DTO];

export function profileDto(overrides: Partial<ProfileDto> = {}): ProfileDto {
  return {
    id: 'u1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    date_of_birth: null,
    organization: 'Analytical Engines Ltd',
    role: 'other',
    subscription_plan: 'free',
    subscription_id: null,
    subscription_status: null,
    billing_interval: null,
    customer_id: null,
    preferred_currency: 'USD',
    credits: 3,
    referral_credits: 25,
    extra_credits: 0,
    referral_code: 'K7QX2M',
    referred_by: null,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    last_sign_in_at: null,
    billing_cycle_start_date: '2025-03-01T00:00:00.000Z',
    billing_cycle_end_date: '2025-04-01T00:00:00.000Z',
    first_purchased_date: null,
    subscription_end_date: null,
    pro_multiplier: 1,
    ...overrides,
  };
}

export function usageDto(overrides: Partial<UsageStatsDto> = {}): UsageStatsDto {
  return {
    prompts_total: 5,
    prompts_used: 2,
    prompts_percent_used: 40,
    private_projects_count: 1,
    private_projects_limit: 3,
    is_unlimited_private_projects: false,
    private_projects_percent_used: 33,
    published_projects_count: 0,
    published_projects_limit: 0,
    is_unlimited_published_projects: false,
    published_projects_percent_used: 0,
    is_unlimited_prompts: false,
    credits_remaining: 28,
    credits_from_plan: 3,
    credits_from_referrals: 25,
    credits_from_add_ons: 0,
    prompts_from_plan: 5,
    prompts_from_referrals: 25,
    is_limitless_plan: false,
    cycle_start: '2025-03-01T00:00:00.000Z',
    cycle_end: '2025-04-01T00:00:00.000Z',
    ...overrides,
  };
}

export function referralsDto(overrides: Partial<ReferralStatsDto> = {}): ReferralStatsDto {
  return {
    referral_code: 'K7QX2M',
    share_link: 'http://localhost:5173/?ref=K7QX2M',
    referred_count: 1,
    credits_earned: 25,
    ...overrides,
  };
}
