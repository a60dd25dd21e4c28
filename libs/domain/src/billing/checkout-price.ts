import { isPaidPlan, type Plan } from '../plans/plan.entity.js';
import { PRO_MULTIPLIERS, type ProMultiplier } from '../profiles/profile.entity.js';
import { type Currency, type Money, moneyOf } from '../shared/money.js';
import type { DomainError } from '../shared/domain-error.js';

/** A multiplier other than 1x, 2x or 3x (SPEC §3 "Multiplier options 1x, 2x, 3x"). */
export type InvalidMultiplier = DomainError<'VALIDATION_FAILED'>;
export const invalidMultiplier = (): InvalidMultiplier => ({ code: 'VALIDATION_FAILED', message: 'multiplier: must be 1, 2 or 3' });

export function isProMultiplier(value: unknown): value is ProMultiplier {
  return (PRO_MULTIPLIERS as readonly unknown[]).includes(value);
}

/**
 * What one period of a plan costs at a multiplier: the plan's price times the multiplier, in
 * minor units (integers). A 2x Pro Monthly is 50 USD and twice the prompts (monthlyAllowance);
 * the free plan is never multiplied.
 */
export function checkoutPrice(plan: Plan, currency: Currency, multiplier: ProMultiplier): Money {
  return moneyOf(plan.prices[currency] * (isPaidPlan(plan) ? multiplier : 1), currency);
}
