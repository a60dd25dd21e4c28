import { Module } from '@nestjs/common';
import {
  type Clock,
  ConsumePromptCredit,
  type CreditLedger,
  GetUsageStats,
  GrantMonthlyAllowance,
  type PlanCatalog,
  type ProfileRepository,
  type ProjectRepository,
  RefundPromptCredit,
} from '@kiln/domain';
import { CLOCK, CREDIT_LEDGER, PLAN_CATALOG, PROFILE_REPOSITORY, PROJECT_REPOSITORY } from '../tokens.js';
import { CreditsController } from './credits.controller.js';
import { UsageController } from './usage.controller.js';

@Module({
  controllers: [CreditsController, UsageController],
  providers: [
    {
      provide: GrantMonthlyAllowance,
      useFactory: (profiles: ProfileRepository, ledger: CreditLedger, plans: PlanCatalog, clock: Clock) =>
        new GrantMonthlyAllowance(profiles, ledger, plans, clock),
      inject: [PROFILE_REPOSITORY, CREDIT_LEDGER, PLAN_CATALOG, CLOCK],
    },
    {
      provide: ConsumePromptCredit,
      useFactory: (profiles: ProfileRepository, ledger: CreditLedger, allowance: GrantMonthlyAllowance, clock: Clock) =>
        new ConsumePromptCredit(profiles, ledger, allowance, clock),
      inject: [PROFILE_REPOSITORY, CREDIT_LEDGER, GrantMonthlyAllowance, CLOCK],
    },
    {
      provide: RefundPromptCredit,
      useFactory: (ledger: CreditLedger, clock: Clock) => new RefundPromptCredit(ledger, clock),
      inject: [CREDIT_LEDGER, CLOCK],
    },
    {
      provide: GetUsageStats,
      useFactory: (
        profiles: ProfileRepository,
        projects: ProjectRepository,
        ledger: CreditLedger,
        allowance: GrantMonthlyAllowance,
        plans: PlanCatalog,
      ) => new GetUsageStats(profiles, projects, ledger, allowance, plans),
      inject: [PROFILE_REPOSITORY, PROJECT_REPOSITORY, CREDIT_LEDGER, GrantMonthlyAllowance, PLAN_CATALOG],
    },
  ],
  exports: [GrantMonthlyAllowance, ConsumePromptCredit, RefundPromptCredit],
})
export class CreditsModule {}
