import { Module } from '@nestjs/common';
import {
  ConsumePromptCredit,
  CountedPromptCredit,
  GetUsageStats,
  GrantMonthlyAllowance,
  RefundPromptCredit,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { ACCOUNT_ACTIVITY, ANALYTICS_EVENT_STORE, CLOCK, CREDIT_LEDGER, PLAN_CATALOG, PROBLEM_LOG, PROFILE_REPOSITORY, PROJECT_REPOSITORY } from '../tokens.js';
import { CreditsController } from './credits.controller.js';
import { UsageController } from './usage.controller.js';

@Module({
  controllers: [CreditsController, UsageController],
  providers: [
    useCase(GrantMonthlyAllowance, [PROFILE_REPOSITORY, CREDIT_LEDGER, PLAN_CATALOG, CLOCK]),
    // Every prompt charged (here and in AI turns) is also counted for the operators' chart, and
    // told to marketing (the contact's prompt usage).
    useCase(CountedPromptCredit, [PROFILE_REPOSITORY, CREDIT_LEDGER, GrantMonthlyAllowance, CLOCK, ANALYTICS_EVENT_STORE, PROBLEM_LOG, ACCOUNT_ACTIVITY]),
    { provide: ConsumePromptCredit, useExisting: CountedPromptCredit },
    useCase(RefundPromptCredit, [CREDIT_LEDGER, CLOCK]),
    useCase(GetUsageStats, [PROFILE_REPOSITORY, PROJECT_REPOSITORY, CREDIT_LEDGER, GrantMonthlyAllowance, PLAN_CATALOG]),
  ],
  exports: [GrantMonthlyAllowance, ConsumePromptCredit, RefundPromptCredit],
})
export class CreditsModule {}
