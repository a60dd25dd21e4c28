import { Module } from '@nestjs/common';
import {
  ConsumePromptCredit,
  GetUsageStats,
  GrantMonthlyAllowance,
  RefundPromptCredit,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import { ACCOUNT_ACTIVITY, CLOCK, CREDIT_LEDGER, PLAN_CATALOG, PROFILE_REPOSITORY, PROJECT_REPOSITORY } from '../tokens.js';
import { CreditsController } from './credits.controller.js';
import { UsageController } from './usage.controller.js';

@Module({
  controllers: [CreditsController, UsageController],
  providers: [
    useCase(GrantMonthlyAllowance, [PROFILE_REPOSITORY, CREDIT_LEDGER, PLAN_CATALOG, CLOCK]),
    useCase(ConsumePromptCredit, [PROFILE_REPOSITORY, CREDIT_LEDGER, GrantMonthlyAllowance, CLOCK, ACCOUNT_ACTIVITY]),
    useCase(RefundPromptCredit, [CREDIT_LEDGER, CLOCK]),
    useCase(GetUsageStats, [PROFILE_REPOSITORY, PROJECT_REPOSITORY, CREDIT_LEDGER, GrantMonthlyAllowance, PLAN_CATALOG]),
  ],
  exports: [GrantMonthlyAllowance, ConsumePromptCredit, RefundPromptCredit],
})
export class CreditsModule {}
