import { refundKeyFor } from './ledger-keys.js';
import type { Clock } from '../shared/clock.port.js';
import type { Result } from '../shared/result.js';
import type { Decision } from './credit-account.js';
import type { CreditError } from './credit.errors.js';
import type { CreditLedger } from './credit-ledger.port.js';
import type { RefundEntry } from './ledger-entry.js';

export interface RefundPromptCreditInput {
  readonly userId: string;
  /** The idempotency key the prompt was charged with. */
  readonly debitKey: string;
}


/** Gives a charged prompt back with a compensating entry (a reverted turn, a failed provider). */
export class RefundPromptCredit {
  constructor(
    private readonly ledger: CreditLedger,
    private readonly clock: Clock,
  ) {}

  execute(input: RefundPromptCreditInput): Promise<Result<Decision<RefundEntry>, CreditError>> {
    return this.ledger.refund(input.userId, {
      key: refundKeyFor(input.debitKey),
      at: this.clock.now(),
      debitKey: input.debitKey,
    });
  }
}
