import { type Result, err, ok } from '../shared/result.js';
import {
  type CreditError,
  alreadyRefunded,
  creditLimitReached,
  idempotencyConflict,
  invalidCreditAmount,
  invalidCycle,
  unknownDebit,
} from './credit.errors.js';
import {
  BUCKETS,
  type Bucket,
  CONSUMPTION_ORDER,
  type CycleEntry,
  type DebitEntry,
  type GrantBucket,
  type GrantEntry,
  type GrantReason,
  type LedgerEntry,
  type Portion,
  type RefundEntry,
  sumPortions,
} from './ledger-entry.js';

/**
 * The pure rules of one credit account. State is a fold of the append-only entries; each
 * decision takes the state and a request and returns the entry to append (or a replay of
 * the entry already appended under the same key, or an error). Every ledger adapter —
 * in memory or SQL — must behave exactly like these functions; the contract suite checks it.
 */

export type Balances = Readonly<Record<Bucket, number>>;

export interface CurrentCycle {
  readonly start: Date;
  readonly end: Date;
  /** null: unlimited prompts in this cycle. */
  readonly allowance: number | null;
}

/** Running totals. Conservation: granted − expired = total balance + consumed − refunded. */
export interface LedgerTotals {
  readonly granted: number;
  readonly expired: number;
  readonly consumed: number;
  readonly refunded: number;
}

/** What a reader of an account needs: balances, the current cycle and the running totals. */
export interface AccountSummary {
  readonly balances: Balances;
  readonly cycle: CurrentCycle | null;
  readonly totals: LedgerTotals;
  /** Prompts used in the current cycle (debited minus refunded), metered or not. */
  readonly cycleUsage: number;
  /** Credits ever granted from referrals and from add-on packs. */
  readonly referralGranted: number;
  readonly addonGranted: number;
}

/** The full state decisions need: the summary plus every key already used. */
export interface AccountState extends AccountSummary {
  readonly byKey: ReadonlyMap<string, LedgerEntry>;
  /** debit key → the key of the refund that compensated it. */
  readonly refundOf: ReadonlyMap<string, string>;
}

export const emptyBalances = (): Balances => ({ monthly: 0, referral: 0, addon: 0 });

export const totalBalance = (b: Balances): number => b.monthly + b.referral + b.addon;

export function emptyAccount(): AccountState {
  return {
    balances: emptyBalances(),
    cycle: null,
    totals: { granted: 0, expired: 0, consumed: 0, refunded: 0 },
    cycleUsage: 0,
    referralGranted: 0,
    addonGranted: 0,
    byKey: new Map(),
    refundOf: new Map(),
  };
}

/** Folds one entry into the state. Entries are trusted here: they were decided by this module. */
export function applyEntry(state: AccountState, entry: LedgerEntry): AccountState {
  const balances = { ...state.balances };
  const totals = { ...state.totals };
  let { cycle, refundOf, cycleUsage, referralGranted, addonGranted } = state;
  const inCurrentCycle = (d: DebitEntry): boolean => (d.cycleStart?.getTime() ?? null) === (cycle?.start.getTime() ?? null);
  switch (entry.kind) {
    case 'grant':
      balances[entry.bucket] += entry.amount;
      totals.granted += entry.amount;
      if (entry.bucket === 'referral') referralGranted += entry.amount;
      else addonGranted += entry.amount;
      break;
    case 'debit':
      for (const p of entry.portions) balances[p.bucket] -= p.amount;
      totals.consumed += sumPortions(entry.portions);
      if (inCurrentCycle(entry)) cycleUsage += entry.amount;
      break;
    case 'refund': {
      for (const p of entry.portions) balances[p.bucket] += p.amount;
      totals.refunded += sumPortions(entry.portions);
      refundOf = new Map(refundOf).set(entry.debitKey, entry.key);
      const debit = state.byKey.get(entry.debitKey);
      if (debit?.kind === 'debit' && inCurrentCycle(debit)) cycleUsage -= debit.amount;
      break;
    }
    case 'cycle':
      totals.expired += entry.expired;
      balances.monthly = entry.allowance ?? 0;
      totals.granted += entry.allowance ?? 0;
      cycle = { start: entry.start, end: entry.end, allowance: entry.allowance };
      cycleUsage = 0;
      break;
  }
  return {
    balances,
    totals,
    cycle,
    cycleUsage,
    referralGranted,
    addonGranted,
    refundOf,
    byKey: new Map(state.byKey).set(entry.key, entry),
  };
}

export function foldEntries(entries: readonly LedgerEntry[]): AccountState {
  return entries.reduce(applyEntry, emptyAccount());
}

/** A decision: the entry appended now, or the one appended earlier under the same key. */
export interface Decision<E extends LedgerEntry> {
  readonly entry: E;
  readonly replayed: boolean;
}

const isPositiveAmount = (n: number): boolean => Number.isSafeInteger(n) && n > 0;

function replay<K extends LedgerEntry['kind']>(
  state: AccountState,
  key: string,
  kind: K,
  sameRequest: (previous: Extract<LedgerEntry, { kind: K }>) => boolean,
): Result<Decision<Extract<LedgerEntry, { kind: K }>>, CreditError> | null {
  const previous = state.byKey.get(key);
  if (!previous) return null;
  if (previous.kind !== kind) return err(idempotencyConflict(key));
  const typed = previous as Extract<LedgerEntry, { kind: K }>;
  return sameRequest(typed) ? ok({ entry: typed, replayed: true }) : err(idempotencyConflict(key));
}

export interface GrantRequest {
  readonly key: string;
  readonly at: Date;
  readonly bucket: GrantBucket;
  readonly amount: number;
  readonly reason: GrantReason;
}

export function decideGrant(state: AccountState, req: GrantRequest): Result<Decision<GrantEntry>, CreditError> {
  const replayed = replay(state, req.key, 'grant', (p) => p.bucket === req.bucket && p.amount === req.amount);
  if (replayed) return replayed;
  if (!isPositiveAmount(req.amount)) return err(invalidCreditAmount(req.amount));
  return ok({
    entry: { kind: 'grant', key: req.key, at: req.at, bucket: req.bucket, amount: req.amount, reason: req.reason },
    replayed: false,
  });
}

export interface DebitRequest {
  readonly key: string;
  readonly at: Date;
  readonly amount: number;
}

/** Takes `amount` credits in consumption order, or refuses without taking any. */
export function decideDebit(state: AccountState, req: DebitRequest): Result<Decision<DebitEntry>, CreditError> {
  const replayed = replay(state, req.key, 'debit', (p) => p.amount === req.amount);
  if (replayed) return replayed;
  if (!isPositiveAmount(req.amount)) return err(invalidCreditAmount(req.amount));
  const cycleStart = state.cycle?.start ?? null;
  const base = { kind: 'debit' as const, key: req.key, at: req.at, amount: req.amount, cycleStart };
  if (state.cycle && state.cycle.allowance === null) {
    return ok({ entry: { ...base, metered: false, portions: [] }, replayed: false });
  }
  const available = totalBalance(state.balances);
  if (available < req.amount) return err(creditLimitReached(available, req.amount));
  const portions: Portion[] = [];
  let left = req.amount;
  for (const bucket of CONSUMPTION_ORDER) {
    const take = Math.min(left, state.balances[bucket]);
    if (take > 0) portions.push({ bucket, amount: take });
    left -= take;
  }
  return ok({ entry: { ...base, metered: true, portions }, replayed: false });
}

export interface RefundRequest {
  readonly key: string;
  readonly at: Date;
  readonly debitKey: string;
}

/**
 * Compensates a debit once. Monthly credits return only while the debit's cycle is still the
 * current one: after a reset they would have expired anyway, and returning them would grow
 * the new allowance.
 */
export function decideRefund(state: AccountState, req: RefundRequest): Result<Decision<RefundEntry>, CreditError> {
  const replayed = replay(state, req.key, 'refund', (p) => p.debitKey === req.debitKey);
  if (replayed) return replayed;
  const debit = state.byKey.get(req.debitKey);
  if (!debit || debit.kind !== 'debit') return err(unknownDebit(req.debitKey));
  const earlier = state.refundOf.get(req.debitKey);
  if (earlier) return err(alreadyRefunded(req.debitKey, earlier));
  const sameCycle = (state.cycle?.start.getTime() ?? null) === (debit.cycleStart?.getTime() ?? null);
  const portions = debit.portions.filter((p) => p.bucket !== 'monthly' || sameCycle);
  return ok({ entry: { kind: 'refund', key: req.key, at: req.at, debitKey: req.debitKey, portions }, replayed: false });
}

export interface CycleRequest {
  readonly key: string;
  readonly at: Date;
  readonly start: Date;
  readonly end: Date;
  /** null: unlimited prompts. */
  readonly allowance: number | null;
}

/** What a cycle request did: started a cycle, or found nothing to do. */
export type CycleDecision =
  | (Decision<CycleEntry> & { readonly outcome: 'started' })
  | { readonly outcome: 'current' | 'stale'; readonly entry: null; readonly replayed: false };

/**
 * Starts an allowance cycle unless it is already the current one (same start and allowance)
 * or older than it. Resetting means the monthly bucket is set to the allowance; referral and
 * add-on buckets are never touched.
 */
export function decideCycle(state: AccountState, req: CycleRequest): Result<CycleDecision, CreditError> {
  const previous = state.byKey.get(req.key);
  if (previous) {
    if (previous.kind !== 'cycle' || previous.start.getTime() !== req.start.getTime() || previous.allowance !== req.allowance) {
      return err(idempotencyConflict(req.key));
    }
    return ok({ entry: previous, replayed: true, outcome: 'started' });
  }
  if (req.allowance !== null && !(Number.isSafeInteger(req.allowance) && req.allowance >= 0)) {
    return err(invalidCreditAmount(req.allowance));
  }
  if (!(req.end.getTime() > req.start.getTime())) return err(invalidCycle('A cycle must end after it starts'));
  const current = state.cycle;
  if (current) {
    if (req.start.getTime() < current.start.getTime()) return ok({ outcome: 'stale', entry: null, replayed: false });
    if (req.start.getTime() === current.start.getTime() && req.allowance === current.allowance) {
      return ok({ outcome: 'current', entry: null, replayed: false });
    }
  }
  const entry: CycleEntry = {
    kind: 'cycle',
    key: req.key,
    at: req.at,
    start: req.start,
    end: req.end,
    allowance: req.allowance,
    expired: state.balances.monthly,
  };
  return ok({ entry, replayed: false, outcome: 'started' });
}

/** Checks the invariants every state must keep; returns the broken ones (empty when sound). */
export function brokenInvariants(state: AccountSummary): string[] {
  const broken: string[] = [];
  for (const bucket of BUCKETS) {
    if (state.balances[bucket] < 0) broken.push(`${bucket} balance is negative`);
  }
  const { granted, expired, consumed, refunded } = state.totals;
  if (granted - expired !== totalBalance(state.balances) + consumed - refunded) broken.push('credits are not conserved');
  return broken;
}
