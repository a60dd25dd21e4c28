import {
  type AccountState,
  type AccountSummary,
  type CreditError,
  type CreditLedger,
  type CycleDecision,
  type CycleRequest,
  type Decision,
  type DebitEntry,
  type DebitRequest,
  type GrantEntry,
  type GrantRequest,
  BUCKETS,
  type LedgerEntry,
  type Portion,
  type RefundEntry,
  type RefundRequest,
  type Result,
  applyEntry,
  creditLimitReached,
  decideCycle,
  decideDebit,
  decideGrant,
  decideRefund,
  emptyAccount,
  err,
  invalidCreditAmount,
  ok,
  sumPortions,
  totalBalance,
} from '@kiln/domain';
import { type EntityManager, In } from 'typeorm';
import { CreditAccountOrmEntity } from './credit-account.orm-entity.js';
import { toAccountColumns, toAccountSummary, toEntryColumns, toLedgerEntry } from './credit-ledger.mapper.js';
import { CreditEntryOrmEntity } from './credit-entry.orm-entity.js';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql, toSafeInteger } from './sql.js';

/**
 * THE debit: one conditional statement. It takes `$2` credits from the account row in
 * consumption order (monthly, then referral, then add-on) only if the three buckets together
 * cover it — or, in an unlimited cycle (a cycle whose allowance is null), takes nothing and only
 * counts the prompt. Every SET and WHERE expression reads the target row `c`, so under
 * concurrency PostgreSQL re-evaluates them on the newest committed version before writing
 * (READ COMMITTED's re-check); the CHECK constraints of credit_accounts (no bucket below 0,
 * conservation) back this up.
 *
 * PostgreSQL before 18 cannot RETURN the old values of an updated row, so the FROM clause reads
 * them from the same row, locked FOR UPDATE: that lock waits for any writer of the account, so it
 * yields the version the UPDATE finally applies to. The adapter recomputes the portions from
 * these old values with the pure `decideDebit` and checks that `new = old − portions` for every
 * bucket before it records the entry. No row comes back when the balance is short (or there is
 * no account row).
 *
 * Why SET reads `c` and not `old`: PostgreSQL computes the new row from the statement's
 * snapshot and checks constraints on it *before* it notices a concurrent update and re-evaluates
 * on the newest version. Amounts from the locked `old` subtracted from a stale `c` would trip the
 * CHECKs spuriously (found by the concurrency spec); expressions of `c` alone never do.
 * The flip side, also PostgreSQL's: a row whose stale version fails the WHERE is skipped without
 * re-evaluation, so the adapter re-runs a refused debit once when the current row could pay it.
 */
export const DEBIT_SQL = `
UPDATE credit_accounts AS c
   SET monthly     = c.monthly  - CASE WHEN c.cycle_start IS NOT NULL AND c.cycle_allowance IS NULL THEN 0
                                       ELSE least(c.monthly, $2::bigint) END,
       referral    = c.referral - CASE WHEN c.cycle_start IS NOT NULL AND c.cycle_allowance IS NULL THEN 0
                                       ELSE least(c.referral, $2::bigint - least(c.monthly, $2::bigint)) END,
       addon       = c.addon    - CASE WHEN c.cycle_start IS NOT NULL AND c.cycle_allowance IS NULL THEN 0
                                       ELSE least(c.addon, $2::bigint - least(c.monthly, $2::bigint)
                                                           - least(c.referral, $2::bigint - least(c.monthly, $2::bigint))) END,
       consumed    = c.consumed + CASE WHEN c.cycle_start IS NOT NULL AND c.cycle_allowance IS NULL THEN 0
                                       ELSE $2::bigint END,
       cycle_usage = c.cycle_usage + $2::bigint
  FROM (SELECT user_id, monthly, referral, addon
          FROM credit_accounts
         WHERE user_id = $1::text
           FOR UPDATE) AS old
 WHERE c.user_id = old.user_id
   AND ((c.cycle_start IS NOT NULL AND c.cycle_allowance IS NULL) OR c.monthly + c.referral + c.addon >= $2::bigint)
RETURNING old.monthly  AS old_monthly,
          old.referral AS old_referral,
          old.addon    AS old_addon,
          c.monthly, c.referral, c.addon,
          c.cycle_start, c.cycle_end, c.cycle_allowance`;

interface DebitRow {
  old_monthly: string;
  old_referral: string;
  old_addon: string;
  monthly: string;
  referral: string;
  addon: string;
  cycle_start: Date | null;
  cycle_end: Date | null;
  cycle_allowance: string | null;
}

/** Appends the debit unless the key was taken meanwhile (then no row comes back). */
const INSERT_DEBIT_SQL = `
INSERT INTO credit_entries (account_id, key, kind, at, amount, metered, monthly_portion, referral_portion, addon_portion, cycle_start)
VALUES ($1, $2, 'debit', $3, $4, $5, $6, $7, $8, $9)
ON CONFLICT (account_id, key) DO NOTHING
RETURNING id`;

/** Thrown inside a debit's transaction to roll it back when a concurrent request took its key. */
class KeyTakenMeanwhile extends Error {}

/** What a decision needs loaded besides the account row. */
interface Needs {
  /** Create the account row if absent (grants and cycles; a refund needs an existing debit). */
  readonly create: boolean;
  /** Entries to load by key (the request's key; a refund's debit key). */
  readonly keys: readonly string[];
  /** A debit key whose refund, if any, must be known. */
  readonly refundOf?: string;
}

const isPositiveAmount = (n: number): boolean => Number.isSafeInteger(n) && n > 0;

/** The state the pure rules need to judge a replay: an empty account holding this one entry. */
const stateHolding = (entry: LedgerEntry): AccountState => ({ ...emptyAccount(), byKey: new Map([[entry.key, entry]]) });

const int = (value: string, column: string) => toSafeInteger(value, `credit_accounts.${column}`);

/** A debit's portions as the three portion columns of credit_entries. */
const portionColumns = (portions: readonly Portion[]): [number, number, number] =>
  BUCKETS.map((bucket) => sumPortions(portions.filter((p) => p.bucket === bucket))) as [number, number, number];

/**
 * The entry for what DEBIT_SQL did: the pure rule decides the portions from the old balances,
 * and every bucket must have moved by exactly that much — or the debit is rolled back.
 */
function debitEntryFor(row: DebitRow, request: DebitRequest): DebitEntry {
  const old = { monthly: int(row.old_monthly, 'monthly'), referral: int(row.old_referral, 'referral'), addon: int(row.old_addon, 'addon') };
  const now = { monthly: int(row.monthly, 'monthly'), referral: int(row.referral, 'referral'), addon: int(row.addon, 'addon') };
  const cycle =
    row.cycle_start && row.cycle_end
      ? { start: row.cycle_start, end: row.cycle_end, allowance: row.cycle_allowance === null ? null : int(row.cycle_allowance, 'cycle_allowance') }
      : null;
  const decision = decideDebit({ ...emptyAccount(), balances: old, cycle }, request);
  if (!decision.ok) throw new Error(`Debit ${request.key}: the database took credits the rules refuse (${decision.error.code})`);
  const entry = decision.value.entry;
  const [monthly, referral, addon] = portionColumns(entry.portions);
  if (old.monthly - monthly !== now.monthly || old.referral - referral !== now.referral || old.addon - addon !== now.addon) {
    throw new Error(`Debit ${request.key}: balances moved ${JSON.stringify(old)} → ${JSON.stringify(now)}, not by ${JSON.stringify(entry.portions)}`);
  }
  return entry;
}

/**
 * The credit ledger in PostgreSQL: `credit_accounts` holds each account's fold (balances, cycle,
 * totals), `credit_entries` the append-only entries. Decisions are the pure functions of
 * credit-account.ts. Grants, refunds and cycles lock the account row, load what the decision
 * needs, decide, append the entry and write the new fold in one transaction; debits are one
 * conditional UPDATE plus the insert (see DEBIT_SQL). Inside a caller's transaction (PgUnitOfWork.run)
 * each operation runs in a savepoint of it.
 */
export class PgCreditLedger implements CreditLedger {
  constructor(private readonly tx: PgUnitOfWork) {}

  async entries(accountId: string): Promise<readonly LedgerEntry[]> {
    const rows = await this.tx.manager().find(CreditEntryOrmEntity, { where: { accountId }, order: { id: 'ASC' } });
    return rows.map(toLedgerEntry);
  }

  async summary(accountId: string): Promise<AccountSummary> {
    return toAccountSummary(await this.tx.manager().findOneBy(CreditAccountOrmEntity, { userId: accountId }));
  }

  grant(accountId: string, request: GrantRequest): Promise<Result<Decision<GrantEntry>, CreditError>> {
    return this.decideAndAppend(accountId, { create: true, keys: [request.key] }, (s) => decideGrant(s, request));
  }

  refund(accountId: string, request: RefundRequest): Promise<Result<Decision<RefundEntry>, CreditError>> {
    const needs = { create: false, keys: [request.key, request.debitKey], refundOf: request.debitKey };
    return this.decideAndAppend(accountId, needs, (s) => decideRefund(s, request));
  }

  startCycle(accountId: string, request: CycleRequest): Promise<Result<CycleDecision, CreditError>> {
    return this.decideAndAppend(accountId, { create: true, keys: [request.key] }, (s) => decideCycle(s, request));
  }

  async debit(accountId: string, request: DebitRequest): Promise<Result<Decision<DebitEntry>, CreditError>> {
    try {
      return await this.tx.atomically(async (manager) => {
        // (a) A key already used: replay it, or refuse it if it was used for something else.
        const previous = await this.entryByKey(manager, accountId, request.key);
        if (previous) return decideDebit(stateHolding(previous), request);
        if (!isPositiveAmount(request.amount)) return err(invalidCreditAmount(request.amount));

        // (b) Decide and take in one statement (twice at most, see below).
        let row: DebitRow | undefined;
        for (let attempt = 1; !row; attempt++) {
          ({ rows: [row] } = await sql<DebitRow>(manager, DEBIT_SQL, [accountId, request.amount]));
          if (row) break;
          // Refused. The statement locked the account row, waiting for any writer of it, so what
          // committed meanwhile is visible now. A same-key debit that won: answer as a replay.
          const meanwhile = await this.entryByKey(manager, accountId, request.key);
          if (meanwhile) return decideDebit(stateHolding(meanwhile), request);
          // PostgreSQL filters rows on the statement's snapshot, so a grant or cycle that
          // committed while it waited can make a refused debit affordable: with the lock now
          // held, one more run sees the current row and decides for good.
          const current = toAccountSummary(await manager.findOneBy(CreditAccountOrmEntity, { userId: accountId }));
          const unmetered = current.cycle !== null && current.cycle.allowance === null;
          const available = totalBalance(current.balances);
          if (attempt >= 2 || (!unmetered && available < request.amount)) {
            return err(creditLimitReached(available, request.amount));
          }
        }
        const entry = debitEntryFor(row, request);

        // (c) Append it; a concurrent request that appended the same key first wins.
        const inserted = await sql(manager, INSERT_DEBIT_SQL, [
          accountId,
          entry.key,
          entry.at,
          entry.amount,
          entry.metered,
          ...portionColumns(entry.portions),
          entry.cycleStart,
        ]);
        if (inserted.rowCount !== 1) throw new KeyTakenMeanwhile();
        return ok({ entry, replayed: false });
      });
    } catch (error) {
      if (!(error instanceof KeyTakenMeanwhile)) throw error;
      // Our take was rolled back; the entry that won the key decides the answer.
      const winner = await this.entryByKey(this.tx.manager(), accountId, request.key);
      if (!winner) throw new Error(`Entry ${request.key} of account ${accountId} conflicted but cannot be read`);
      return decideDebit(stateHolding(winner), request);
    }
  }

  private decideAndAppend<T extends { readonly entry: LedgerEntry | null; readonly replayed: boolean }>(
    accountId: string,
    needs: Needs,
    decide: (state: AccountState) => Result<T, CreditError>,
  ): Promise<Result<T, CreditError>> {
    return this.tx.atomically(async (manager) => {
      const account = await this.lockAccount(manager, accountId, needs.create);
      const state = await this.loadState(manager, accountId, account, needs);
      const decision = decide(state);
      if (decision.ok && !decision.value.replayed && decision.value.entry) {
        const entry = decision.value.entry;
        await manager.insert(CreditEntryOrmEntity, toEntryColumns(accountId, entry));
        await manager.update(CreditAccountOrmEntity, { userId: accountId }, toAccountColumns(applyEntry(state, entry)));
      }
      return decision;
    });
  }

  /** SELECT … FOR UPDATE on the account row, creating it first (INSERT … ON CONFLICT DO NOTHING) if asked. */
  private async lockAccount(manager: EntityManager, accountId: string, create: boolean): Promise<CreditAccountOrmEntity | null> {
    const lock = () => manager.findOne(CreditAccountOrmEntity, { where: { userId: accountId }, lock: { mode: 'pessimistic_write' } });
    const row = await lock();
    if (row || !create) return row;
    await sql(manager, 'INSERT INTO credit_accounts (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [accountId]);
    return lock();
  }

  /** The account's fold plus the entries and refund the decision can look at. */
  private async loadState(manager: EntityManager, accountId: string, account: CreditAccountOrmEntity | null, needs: Needs): Promise<AccountState> {
    const rows = await manager.find(CreditEntryOrmEntity, { where: { accountId, key: In([...needs.keys]) } });
    const refundOf = new Map<string, string>();
    if (needs.refundOf !== undefined) {
      const refund = await manager.findOneBy(CreditEntryOrmEntity, { accountId, kind: 'refund', debitKey: needs.refundOf });
      if (refund) refundOf.set(needs.refundOf, refund.key);
    }
    return { ...toAccountSummary(account), byKey: new Map(rows.map((r) => [r.key, toLedgerEntry(r)])), refundOf };
  }

  private async entryByKey(manager: EntityManager, accountId: string, key: string): Promise<LedgerEntry | null> {
    const row = await manager.findOneBy(CreditEntryOrmEntity, { accountId, key });
    return row ? toLedgerEntry(row) : null;
  }

}
