import {
  type AccountSummary,
  CONSUMPTION_ORDER,
  type Bucket,
  type GrantBucket,
  type GrantReason,
  type LedgerEntry,
  type Portion,
  emptyAccount,
} from '@kiln/domain';
import type { CreditAccountOrmEntity } from './credit-account.orm-entity.js';
import type { CreditEntryOrmEntity } from './credit-entry.orm-entity.js';
import { toSafeInteger, toSafeIntegerOrNull } from './sql.js';

type AccountColumns = Omit<CreditAccountOrmEntity, 'userId'>;
type EntryColumns = Omit<CreditEntryOrmEntity, 'id'>;

const GRANT_BUCKETS: readonly GrantBucket[] = ['referral', 'addon'];
const GRANT_REASONS: readonly GrantReason[] = ['referral_bonus', 'addon_purchase', 'adjustment'];

function oneOf<T extends string>(allowed: readonly T[], value: string | null, column: string): T {
  if (!allowed.includes(value as T)) throw new Error(`credit_entries.${column} holds an unexpected value: ${String(value)}`);
  return value as T;
}

function required<T>(value: T | null, column: string): T {
  if (value === null) throw new Error(`credit_entries.${column} is null where the entry kind needs it`);
  return value;
}

/** An account's summary; an unknown account (no row) is empty. */
export function toAccountSummary(row: CreditAccountOrmEntity | null): AccountSummary {
  if (!row) {
    const { balances, cycle, totals, cycleUsage, referralGranted, addonGranted } = emptyAccount();
    return { balances, cycle, totals, cycleUsage, referralGranted, addonGranted };
  }
  const int = (value: string, column: string) => toSafeInteger(value, `credit_accounts.${column}`);
  return {
    balances: { monthly: int(row.monthly, 'monthly'), referral: int(row.referral, 'referral'), addon: int(row.addon, 'addon') },
    cycle:
      row.cycleStart && row.cycleEnd
        ? { start: row.cycleStart, end: row.cycleEnd, allowance: toSafeIntegerOrNull(row.cycleAllowance, 'credit_accounts.cycle_allowance') }
        : null,
    totals: {
      granted: int(row.granted, 'granted'),
      expired: int(row.expired, 'expired'),
      consumed: int(row.consumed, 'consumed'),
      refunded: int(row.refunded, 'refunded'),
    },
    cycleUsage: int(row.cycleUsage, 'cycle_usage'),
    referralGranted: int(row.referralGranted, 'referral_granted'),
    addonGranted: int(row.addonGranted, 'addon_granted'),
  };
}

export function toAccountColumns(s: AccountSummary): AccountColumns {
  return {
    monthly: String(s.balances.monthly),
    referral: String(s.balances.referral),
    addon: String(s.balances.addon),
    cycleStart: s.cycle?.start ?? null,
    cycleEnd: s.cycle?.end ?? null,
    cycleAllowance: s.cycle && s.cycle.allowance !== null ? String(s.cycle.allowance) : null,
    granted: String(s.totals.granted),
    expired: String(s.totals.expired),
    consumed: String(s.totals.consumed),
    refunded: String(s.totals.refunded),
    cycleUsage: String(s.cycleUsage),
    referralGranted: String(s.referralGranted),
    addonGranted: String(s.addonGranted),
  };
}

/** Portions from one column per bucket, in consumption order, leaving out empty buckets. */
export function toPortions(amounts: Readonly<Record<Bucket, number>>): Portion[] {
  return CONSUMPTION_ORDER.filter((bucket) => amounts[bucket] > 0).map((bucket) => ({ bucket, amount: amounts[bucket] }));
}

function portionColumns(portions: readonly Portion[]): Pick<EntryColumns, 'monthlyPortion' | 'referralPortion' | 'addonPortion'> {
  const of = (bucket: Bucket) => String(portions.filter((p) => p.bucket === bucket).reduce((s, p) => s + p.amount, 0));
  return { monthlyPortion: of('monthly'), referralPortion: of('referral'), addonPortion: of('addon') };
}

export function toLedgerEntry(row: CreditEntryOrmEntity): LedgerEntry {
  const int = (value: string | null, column: string) => toSafeInteger(required(value, column), `credit_entries.${column}`);
  const portions = () =>
    toPortions({
      monthly: int(row.monthlyPortion, 'monthly_portion'),
      referral: int(row.referralPortion, 'referral_portion'),
      addon: int(row.addonPortion, 'addon_portion'),
    });
  const base = { key: row.key, at: row.at };
  switch (row.kind) {
    case 'grant':
      return {
        kind: 'grant',
        ...base,
        bucket: oneOf(GRANT_BUCKETS, row.bucket, 'bucket'),
        amount: int(row.amount, 'amount'),
        reason: oneOf(GRANT_REASONS, row.reason, 'reason'),
      };
    case 'debit':
      return { kind: 'debit', ...base, amount: int(row.amount, 'amount'), metered: required(row.metered, 'metered'), portions: portions(), cycleStart: row.cycleStart };
    case 'refund':
      return { kind: 'refund', ...base, debitKey: required(row.debitKey, 'debit_key'), portions: portions() };
    case 'cycle':
      return {
        kind: 'cycle',
        ...base,
        start: required(row.cycleStart, 'cycle_start'),
        end: required(row.cycleEnd, 'cycle_end'),
        allowance: toSafeIntegerOrNull(row.allowance, 'credit_entries.allowance'),
        expired: int(row.expired, 'expired'),
      };
    default:
      throw new Error(`credit_entries.kind holds an unexpected value: ${row.kind}`);
  }
}

export function toEntryColumns(accountId: string, entry: LedgerEntry): EntryColumns {
  const none: EntryColumns = {
    accountId,
    key: entry.key,
    kind: entry.kind,
    at: entry.at,
    amount: null,
    bucket: null,
    reason: null,
    metered: null,
    ...portionColumns([]),
    cycleStart: null,
    cycleEnd: null,
    allowance: null,
    expired: null,
    debitKey: null,
  };
  switch (entry.kind) {
    case 'grant':
      return { ...none, amount: String(entry.amount), bucket: entry.bucket, reason: entry.reason };
    case 'debit':
      return { ...none, amount: String(entry.amount), metered: entry.metered, ...portionColumns(entry.portions), cycleStart: entry.cycleStart };
    case 'refund':
      return { ...none, debitKey: entry.debitKey, ...portionColumns(entry.portions) };
    case 'cycle':
      return {
        ...none,
        cycleStart: entry.start,
        cycleEnd: entry.end,
        allowance: entry.allowance === null ? null : String(entry.allowance),
        expired: String(entry.expired),
      };
  }
}

