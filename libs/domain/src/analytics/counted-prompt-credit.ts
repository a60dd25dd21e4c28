import { ConsumePromptCredit, type ConsumePromptCreditInput, type ConsumedCredit } from '../credits/consume-prompt-credit.use-case.js';
import type { CreditError } from '../credits/credit.errors.js';
import type { CreditLedger } from '../credits/credit-ledger.port.js';
import type { GrantMonthlyAllowance } from '../credits/grant-monthly-allowance.use-case.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { type AccountActivityListener, NO_ACCOUNT_ACTIVITY_LISTENER } from '../shared/account-activity.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import type { Result } from '../shared/result.js';
import type { AnalyticsEventStore } from './analytics-event-store.port.js';
import { PROMPT_EVENT_NAME } from './recorded-event.js';

/**
 * ConsumePromptCredit that also records a 'prompt' event for the operators' chart each time a
 * prompt is really charged (not a replayed key). The server records it, so ad blockers and the
 * localhost rule do not hide prompts; a failing analytics store never fails the prompt.
 */
export class CountedPromptCredit extends ConsumePromptCredit {
  constructor(
    profiles: ProfileRepository,
    ledger: CreditLedger,
    allowance: GrantMonthlyAllowance,
    private readonly now: Clock,
    private readonly events: AnalyticsEventStore,
    private readonly problems: ProblemLog,
    activity: AccountActivityListener = NO_ACCOUNT_ACTIVITY_LISTENER,
  ) {
    super(profiles, ledger, allowance, now, activity);
  }

  override async execute(input: ConsumePromptCreditInput): Promise<Result<ConsumedCredit, CreditError>> {
    const result = await super.execute(input);
    if (result.ok && !result.value.replayed) {
      const event = { name: PROMPT_EVENT_NAME, kind: 'server' as const, properties: {}, userId: input.userId, occurredAt: this.now.now() };
      try {
        await this.events.record([event]);
      } catch (error) {
        this.problems.warn(`Recording a prompt for analytics failed: ${problemText(error)}`);
      }
    }
    return result;
  }
}
