import type { BillingInterval } from '../plans/plan.entity.js';
import type { Currency } from '../shared/money.js';
export type ProMultiplier = 1 | 2 | 3;
export const PRO_MULTIPLIERS: readonly ProMultiplier[] = [1, 2, 3];
export const DEFAULT_ROLE = 'other';

/**
 * The roles a person may choose (sign-up's profile step and Settings show this list; the API
 * accepts exactly these values). SPEC §3: the default is 'other'.
 */
export const PROFILE_ROLES = [
  { value: 'founder', label: 'Founder' },
  { value: 'developer', label: 'Developer' },
  { value: 'designer', label: 'Designer' },
  { value: 'product_manager', label: 'Product manager' },
  { value: 'marketer', label: 'Marketer' },
  { value: 'student', label: 'Student' },
  { value: DEFAULT_ROLE, label: 'Other' },
] as const satisfies readonly { readonly value: string; readonly label: string }[];

export type ProfileRole = (typeof PROFILE_ROLES)[number]['value'];
export const PROFILE_ROLE_VALUES: readonly ProfileRole[] = PROFILE_ROLES.map((r) => r.value);

export function isProfileRole(value: unknown): value is ProfileRole {
  return typeof value === 'string' && (PROFILE_ROLE_VALUES as readonly string[]).includes(value);
}

/** The role to show for a stored one: roles from before the list (free text) read as 'other'. */
export function knownRole(value: string | null | undefined): ProfileRole {
  return isProfileRole(value) ? value : DEFAULT_ROLE;
}

/**
 * A user's profile: every field of SPEC §3 (table profiles), camel-cased. `subscriptionPlan`
 * is kept as stored — it may name a plan the catalog no longer offers, which resolves to free.
 * The three credit fields are a read model of the credit ledger (the ledger is the truth);
 * adapters fill them from the ledger's balances, use cases never write them directly.
 */
export interface Profile {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly dateOfBirth: string | null;
  readonly organization: string | null;
  readonly role: string;
  readonly subscriptionPlan: string;
  readonly subscriptionId: string | null;
  readonly subscriptionStatus: string | null;
  readonly billingInterval: BillingInterval | null;
  readonly customerId: string | null;
  readonly preferredCurrency: Currency;
  readonly credits: number;
  readonly referralCredits: number;
  readonly extraCredits: number;
  readonly referralCode: string;
  readonly referredBy: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly lastSignInAt: Date | null;
  readonly billingCycleStartDate: Date | null;
  readonly billingCycleEndDate: Date | null;
  readonly firstPurchasedDate: Date | null;
  readonly subscriptionEndDate: Date | null;
  readonly proMultiplier: ProMultiplier;
}

/** What sign-up stored about the user (auth `user_metadata`). */
export interface SignUpMetadata {
  readonly full_name?: unknown;
  readonly [key: string]: unknown;
}

export interface NewProfileInput {
  readonly id: string;
  readonly email: string;
  readonly metadata?: SignUpMetadata | null;
  readonly referralCode: string;
}

/** SPEC §3/§4: name from the sign-up full name, else empty. */
export function nameFromMetadata(metadata: SignUpMetadata | null | undefined): string {
  const fullName = metadata?.full_name;
  return typeof fullName === 'string' ? fullName.trim() : '';
}

/** A new profile with every SPEC default: plan free, role other, zero credits, USD. */
export function createProfile(input: NewProfileInput, now: Date): Profile {
  return Object.freeze({
    id: input.id,
    name: nameFromMetadata(input.metadata),
    email: input.email,
    dateOfBirth: null,
    organization: null,
    role: DEFAULT_ROLE,
    subscriptionPlan: 'free',
    subscriptionId: null,
    subscriptionStatus: null,
    billingInterval: null,
    customerId: null,
    preferredCurrency: 'USD',
    credits: 0,
    referralCredits: 0,
    extraCredits: 0,
    referralCode: input.referralCode,
    referredBy: null,
    createdAt: now,
    updatedAt: now,
    lastSignInAt: now,
    billingCycleStartDate: null,
    billingCycleEndDate: null,
    firstPurchasedDate: null,
    subscriptionEndDate: null,
    proMultiplier: 1,
  });
}

/** SPEC §2: Earn More Credits is shown when the subscription status is active. */
export function hasActiveSubscription(profile: Pick<Profile, 'subscriptionStatus'>): boolean {
  return profile.subscriptionStatus === 'active';
}

/** The date from which the monthly allowance cycles run: the billing cycle start, else sign-up. */
export function allowanceAnchor(profile: Pick<Profile, 'billingCycleStartDate' | 'createdAt'>): Date {
  return profile.billingCycleStartDate ?? profile.createdAt;
}
