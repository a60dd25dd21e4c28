import { type Balances, totalBalance } from '../credits/credit-account.js';
import type { AccountSummary } from '../credits/credit-account.js';
import type { Profile } from '../profiles/profile.entity.js';
import type { ContactAttributes } from './contact-attributes.js';

export interface AccountFacts {
  readonly profile: Profile;
  readonly credits: Pick<AccountSummary, 'balances' | 'totals'>;
  /** Projects the person has (deleted ones excluded). */
  readonly projectCount: number;
}

const day = (d: Date | null) => (d === null ? undefined : d.toISOString().slice(0, 10));
const nonNegative = (n: number) => Math.max(0, n);

/** "Asha Rao Menon" → FIRSTNAME "Asha", LASTNAME "Rao Menon"; an empty name sends neither. */
function nameParts(name: string): Pick<ContactAttributes, 'FIRSTNAME' | 'LASTNAME'> {
  const [first, ...rest] = name.trim().split(/\s+/);
  if (first === undefined || first === '') return {};
  return rest.length === 0 ? { FIRSTNAME: first } : { FIRSTNAME: first, LASTNAME: rest.join(' ') };
}

/** Prompts used (debited minus refunded) and what is left of the plan's own prompts. */
export function promptCounts(credits: AccountFacts['credits']): { readonly used: number; readonly planBalance: number; readonly total: number } {
  const balances: Balances = credits.balances;
  return {
    used: nonNegative(credits.totals.consumed - credits.totals.refunded),
    // A balance can dip below zero (SPEC §5 credit limit); the audience is told 0.
    planBalance: nonNegative(balances.monthly),
    total: nonNegative(totalBalance(balances)),
  };
}

/**
 * The SPEC §3 contact attributes Kiln knows on the server about an account. Dates are
 * YYYY-MM-DD (Brevo date attributes); unknown values are left out so they are never blanked.
 * PROMPTS_BALANCE is the plan's prompts left, CREDIT_BALANCE every credit left (plan, referral
 * and add-on). COUNTRY, CONTACT_TIMEZONE, LINKEDIN, phone numbers and TOTAL_PURCHASE_VALUE are not
 * known here: the web sends them through PUT /api/brevo/update-contact.
 */
export function contactAttributesFromAccount(facts: AccountFacts): ContactAttributes {
  const { profile } = facts;
  const counts = promptCounts(facts.credits);
  const optional: Record<string, string | undefined> = {
    BILLING_CYCLE_START_DATE: day(profile.billingCycleStartDate),
    BILLING_CYCLE_END_DATE: day(profile.billingCycleEndDate),
    FIRST_PURCHASE_DATE: day(profile.firstPurchasedDate),
    DOB: profile.dateOfBirth ?? undefined,
    ORGANIZATION: profile.organization ?? undefined,
    JOB_TITLE: profile.role,
  };
  const present = Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined && v !== ''));
  return {
    ...nameParts(profile.name),
    ...present,
    PLAN: profile.subscriptionPlan,
    TOTAL_PROMPTS_USED: counts.used,
    PROMPTS_BALANCE: counts.planBalance,
    CREDIT_BALANCE: counts.total,
    SIGNUP_DATE: day(profile.createdAt) as string,
    PROJECT_COUNT: facts.projectCount,
    EXT_ID: profile.id,
  };
}
