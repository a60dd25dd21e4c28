import type { Result } from '../shared/result.js';
import type {
  AccountSummary,
  CycleDecision,
  CycleRequest,
  Decision,
  DebitRequest,
  GrantRequest,
  RefundRequest,
} from './credit-account.js';
import type { CreditError } from './credit.errors.js';
import type { DebitEntry, GrantEntry, LedgerEntry, RefundEntry } from './ledger-entry.js';

/**
 * The credit ledger: one append-only account per user. Each write is atomic — the decision
 * and the append happen as one step, so concurrent debits can never spend the same credit
 * (in SQL: one conditional UPDATE plus the insert, in one transaction) — and each is
 * idempotent: a request whose key the account already holds returns that entry and changes
 * nothing. The semantics are exactly those of `credit-account.ts`.
 */
export interface CreditLedger {
  /** The account's entries in the order they were appended. */
  entries(accountId: string): Promise<readonly LedgerEntry[]>;
  /** The account's current balances, cycle and totals (an empty account for an unknown id). */
  summary(accountId: string): Promise<AccountSummary>;
  grant(accountId: string, request: GrantRequest): Promise<Result<Decision<GrantEntry>, CreditError>>;
  debit(accountId: string, request: DebitRequest): Promise<Result<Decision<DebitEntry>, CreditError>>;
  refund(accountId: string, request: RefundRequest): Promise<Result<Decision<RefundEntry>, CreditError>>;
  startCycle(accountId: string, request: CycleRequest): Promise<Result<CycleDecision, CreditError>>;
}
