import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { type AccountActivityListener, NO_ACCOUNT_ACTIVITY_LISTENER } from '../shared/account-activity.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type Balances, totalBalance } from './credit-account.js';
import { PROMPT_COST } from './credit.constants.js';
import { type CreditError, creditLimitReached } from './credit.errors.js';
import type { CreditLedger } from './credit-ledger.port.js';
import type { GrantMonthlyAllowance } from './grant-monthly-allowance.use-case.js';
import type { DebitEntry } from './ledger-entry.js';

export interface ConsumePromptCreditInput {
  readonly userId: string;
  /** One key per message or task; a retry with the same key is not charged again. */
  readonly idempotencyKey: string;
}

export interface ConsumedCredit {
  readonly debit: DebitEntry;
  /** True when this key had already been charged: nothing new was debited. */
  readonly replayed: boolean;
  readonly balances: Balances;
  readonly creditsRemaining: number;
}

/**
 * Charges one prompt: rolls the allowance cycle forward if it has ended, then debits one
 * credit atomically (monthly first, then referral, then add-on). With no profile the credit
 * limit counts as reached (SPEC §5).
 */
export class ConsumePromptCredit {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly ledger: CreditLedger,
    private readonly allowance: GrantMonthlyAllowance,
    private readonly clock: Clock,
    /** Told of each prompt charged (not of a replayed key): marketing's prompt usage. */
    private readonly activity: AccountActivityListener = NO_ACCOUNT_ACTIVITY_LISTENER,
  ) {}

  async execute(input: ConsumePromptCreditInput): Promise<Result<ConsumedCredit, CreditError>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(creditLimitReached(0, PROMPT_COST));
    const cycle = await this.allowance.forProfile(profile);
    if (!cycle.ok) return cycle;
    const at = this.clock.now();
    const debit = await this.ledger.debit(profile.id, {
      key: input.idempotencyKey,
      at,
      amount: PROMPT_COST,
    });
    if (!debit.ok) return debit;
    if (!debit.value.replayed) await this.activity.record({ userId: profile.id, kind: 'prompt_used', at });
    const { balances } = await this.ledger.summary(profile.id);
    return ok({
      debit: debit.value.entry,
      replayed: debit.value.replayed,
      balances,
      creditsRemaining: totalBalance(balances),
    });
  }
}
