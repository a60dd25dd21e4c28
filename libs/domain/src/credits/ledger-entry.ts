/**
 * The credit ledger is append-only. Each entry belongs to one account (a user), carries an
 * idempotency key unique within that account, and is never changed or deleted: a refund is
 * a compensating entry and a monthly reset is an entry that expires what is left.
 */

/** Where credits sit. Debits take from them in CONSUMPTION_ORDER. */
export type Bucket = 'monthly' | 'referral' | 'addon';
export const BUCKETS: readonly Bucket[] = ['monthly', 'referral', 'addon'];
/** SPEC/issue: the monthly allowance is used first, then referral credits, then add-ons. */
export const CONSUMPTION_ORDER: readonly Bucket[] = ['monthly', 'referral', 'addon'];

/** Buckets that receive plain grants; the monthly bucket is only ever set by a cycle entry. */
export type GrantBucket = Exclude<Bucket, 'monthly'>;
export type GrantReason = 'referral_bonus' | 'addon_purchase' | 'adjustment';

export interface Portion {
  readonly bucket: Bucket;
  readonly amount: number;
}

interface EntryBase {
  readonly key: string;
  readonly at: Date;
}

export interface GrantEntry extends EntryBase {
  readonly kind: 'grant';
  readonly bucket: GrantBucket;
  readonly amount: number;
  readonly reason: GrantReason;
}

/**
 * One prompt (or several) paid for. `portions` say which buckets paid; an unmetered debit
 * (a plan with unlimited prompts) has no portions and costs nothing, but still counts as use.
 * `cycleStart` is the allowance cycle in force, so a later refund knows whether the monthly
 * part has expired meanwhile.
 */
export interface DebitEntry extends EntryBase {
  readonly kind: 'debit';
  readonly amount: number;
  readonly metered: boolean;
  readonly portions: readonly Portion[];
  readonly cycleStart: Date | null;
}

/** Gives back what a debit took, to the buckets it came from (monthly only within its cycle). */
export interface RefundEntry extends EntryBase {
  readonly kind: 'refund';
  readonly debitKey: string;
  readonly portions: readonly Portion[];
}

/**
 * Starts an allowance cycle: what is left of the monthly bucket expires and the new
 * allowance is granted (reset, not accumulated). `allowance` null means unlimited prompts.
 */
export interface CycleEntry extends EntryBase {
  readonly kind: 'cycle';
  readonly start: Date;
  readonly end: Date;
  readonly allowance: number | null;
  readonly expired: number;
}

export type LedgerEntry = GrantEntry | DebitEntry | RefundEntry | CycleEntry;

export const sumPortions = (portions: readonly Portion[]): number => portions.reduce((s, p) => s + p.amount, 0);
