import type { PlanCatalog } from '../plans/plan-catalog.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { CreditError } from './credit.errors.js';
import type { CreditLedger } from './credit-ledger.port.js';
import type { GrantMonthlyAllowance } from './grant-monthly-allowance.use-case.js';
import { type UsageStats, usageStats } from './usage-stats.js';

/** The usage-limits panel's numbers, after rolling the allowance cycle forward if due. */
export class GetUsageStats {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly projects: ProjectRepository,
    private readonly ledger: CreditLedger,
    private readonly allowance: GrantMonthlyAllowance,
    private readonly plans: PlanCatalog,
  ) {}

  async execute(input: { readonly userId: string }): Promise<Result<UsageStats, ProfileNotFound | CreditError>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    const cycle = await this.allowance.execute({ userId: profile.id });
    if (!cycle.ok) return cycle;
    const [account, privateProjectsCount, publishedProjectsCount] = await Promise.all([
      this.ledger.summary(profile.id),
      this.projects.countActiveByCreator(profile.id),
      this.projects.countPublishedByCreator(profile.id),
    ]);
    return ok(usageStats({ plan: this.plans.resolve(profile.subscriptionPlan), account, privateProjectsCount, publishedProjectsCount }));
  }
}
