import type { BillingInterval, Currency, Profile, ProMultiplier } from '@kiln/domain';
import type { CreditAccountOrmEntity } from './credit-account.orm-entity.js';
import type { ProfileOrmEntity } from './profile.orm-entity.js';
import { toSafeInteger } from './sql.js';

/** A profile row with its ledger account joined (absent before the first credit entry). */
export type ProfileWithAccount = ProfileOrmEntity & { account?: Pick<CreditAccountOrmEntity, 'monthly' | 'referral' | 'addon'> | null };

const BILLING_INTERVALS: readonly BillingInterval[] = ['monthly', 'annual'];
const CURRENCIES: readonly Currency[] = ['USD', 'INR'];
const MULTIPLIERS: readonly ProMultiplier[] = [1, 2, 3];

function oneOf<T extends string | number>(allowed: readonly T[], value: unknown, column: string): T {
  if (!allowed.includes(value as T)) throw new Error(`profiles.${column} holds an unexpected value: ${String(value)}`);
  return value as T;
}

export function toProfile(row: ProfileWithAccount): Profile {
  const account = row.account ?? null;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    dateOfBirth: row.dateOfBirth,
    organization: row.organization,
    role: row.role,
    subscriptionPlan: row.subscriptionPlan,
    subscriptionId: row.subscriptionId,
    subscriptionStatus: row.subscriptionStatus,
    billingInterval: row.billingInterval === null ? null : oneOf(BILLING_INTERVALS, row.billingInterval, 'billing_interval'),
    customerId: row.customerId,
    preferredCurrency: oneOf(CURRENCIES, row.preferredCurrency, 'preferred_currency'),
    credits: account ? toSafeInteger(account.monthly, 'credit_accounts.monthly') : 0,
    referralCredits: account ? toSafeInteger(account.referral, 'credit_accounts.referral') : 0,
    extraCredits: account ? toSafeInteger(account.addon, 'credit_accounts.addon') : 0,
    referralCode: row.referralCode,
    referredBy: row.referredBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastSignInAt: row.lastSignInAt,
    billingCycleStartDate: row.billingCycleStartDate,
    billingCycleEndDate: row.billingCycleEndDate,
    firstPurchasedDate: row.firstPurchasedDate,
    subscriptionEndDate: row.subscriptionEndDate,
    proMultiplier: oneOf(MULTIPLIERS, Number(row.proMultiplier), 'pro_multiplier'),
  };
}

/** The stored columns of a profile: everything but the credit read model. */
export function toProfileRow(profile: Profile): ProfileOrmEntity {
  return {
    id: profile.id,
    name: profile.name,
    email: profile.email,
    dateOfBirth: profile.dateOfBirth,
    organization: profile.organization,
    role: profile.role,
    subscriptionPlan: profile.subscriptionPlan,
    subscriptionId: profile.subscriptionId,
    subscriptionStatus: profile.subscriptionStatus,
    billingInterval: profile.billingInterval,
    customerId: profile.customerId,
    preferredCurrency: profile.preferredCurrency,
    referralCode: profile.referralCode,
    referredBy: profile.referredBy,
    createdAt: profile.createdAt,
    updatedAt: profile.updatedAt,
    lastSignInAt: profile.lastSignInAt,
    billingCycleStartDate: profile.billingCycleStartDate,
    billingCycleEndDate: profile.billingCycleEndDate,
    firstPurchasedDate: profile.firstPurchasedDate,
    subscriptionEndDate: profile.subscriptionEndDate,
    proMultiplier: profile.proMultiplier,
  };
}
