import type { CreditLedger } from '../credits/credit-ledger.port.js';
import {
  type AccountState,
  type AccountSummary,
  applyEntry,
  type CycleDecision,
  type CycleRequest,
  type Decision,
  type DebitRequest,
  decideCycle,
  decideDebit,
  decideGrant,
  decideRefund,
  emptyAccount,
  type GrantRequest,
  type RefundRequest,
} from '../credits/credit-account.js';
import type { CreditError } from '../credits/credit.errors.js';
import type { DebitEntry, GrantEntry, LedgerEntry, RefundEntry } from '../credits/ledger-entry.js';
import type { Result } from '../shared/result.js';

/** A hook awaited around every operation; tests pass a scheduler's hook to explore interleavings. */
export type Pause = () => Promise<void>;

interface Account {
  entries: LedgerEntry[];
  state: AccountState;
}

/**
 * The credit ledger in memory. Each operation awaits `pause` before and after, but decides
 * and appends in one synchronous step — the in-memory equivalent of one SQL statement — so
 * no interleaving can spend a credit twice.
 */
export class InMemoryCreditLedger implements CreditLedger {
  private readonly accounts = new Map<string, Account>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async entries(accountId: string): Promise<readonly LedgerEntry[]> {
    await this.pause();
    return [...(this.accounts.get(accountId)?.entries ?? [])];
  }

  async summary(accountId: string): Promise<AccountSummary> {
    await this.pause();
    const { balances, cycle, totals, cycleUsage, referralGranted, addonGranted } = this.account(accountId).state;
    return { balances, cycle, totals, cycleUsage, referralGranted, addonGranted };
  }

  grant(accountId: string, request: GrantRequest): Promise<Result<Decision<GrantEntry>, CreditError>> {
    return this.atomically(accountId, (s) => decideGrant(s, request));
  }

  debit(accountId: string, request: DebitRequest): Promise<Result<Decision<DebitEntry>, CreditError>> {
    return this.atomically(accountId, (s) => decideDebit(s, request));
  }

  refund(accountId: string, request: RefundRequest): Promise<Result<Decision<RefundEntry>, CreditError>> {
    return this.atomically(accountId, (s) => decideRefund(s, request));
  }

  startCycle(accountId: string, request: CycleRequest): Promise<Result<CycleDecision, CreditError>> {
    return this.atomically(accountId, (s) => decideCycle(s, request));
  }

  private account(accountId: string): Account {
    let account = this.accounts.get(accountId);
    if (!account) {
      account = { entries: [], state: emptyAccount() };
      this.accounts.set(accountId, account);
    }
    return account;
  }

  private async atomically<T extends { entry: LedgerEntry | null; replayed: boolean }>(
    accountId: string,
    decide: (state: AccountState) => Result<T, CreditError>,
  ): Promise<Result<T, CreditError>> {
    await this.pause();
    const account = this.account(accountId);
    const decision = decide(account.state);
    if (decision.ok && !decision.value.replayed && decision.value.entry) {
      account.entries.push(decision.value.entry);
      account.state = applyEntry(account.state, decision.value.entry);
    }
    await this.pause();
    return decision;
  }
}
