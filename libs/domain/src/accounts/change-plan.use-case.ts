import type { CycleDecision } from '../credits/credit-account.js';
import type { CreditError } from '../credits/credit.errors.js';
import type { GrantMonthlyAllowance } from '../credits/grant-monthly-allowance.use-case.js';
import type { Profile, ProMultiplier } from '../profiles/profile.entity.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { type AccountActivityListener, NO_ACCOUNT_ACTIVITY_LISTENER } from '../shared/account-activity.port.js';
import type { Clock } from '../shared/clock.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { UnitOfWork } from '../shared/unit-of-work.port.js';
import { isPaidPlan } from '../plans/plan.entity.js';
import { type UnknownPlan, unknownPlan } from '../plans/plan.errors.js';
import type { PlanCatalog } from '../plans/plan-catalog.js';

export interface ChangePlanInput {
  readonly userId: string;
  readonly planId: string;
  /**
   * Identifies this change (the payment provider's event id, say): replaying the same change
   * grants nothing twice. Omitted, every call is a new change.
   */
  readonly changeKey?: string;
  /** The billing period the payment provider reports; absent for a change to free. */
  readonly period?: { readonly start: Date; readonly end: Date } | null;
  readonly subscriptionId?: string | null;
  readonly subscriptionStatus?: string | null;
  readonly customerId?: string | null;
  readonly subscriptionEndDate?: Date | null;
  readonly proMultiplier?: ProMultiplier;
}

export interface ChangedPlan {
  readonly profile: Profile;
  readonly planChanged: boolean;
  readonly cycle: CycleDecision | null;
}

/**
 * Moves a user to a plan (checkout, renewal, cancellation, downgrade). The allowance cycles
 * are re-anchored at the reported billing period, or at the moment of a change without one,
 * and the current cycle is granted with the new plan's allowance — so a downgrade to free
 * enforces free limits from then on. Referral and add-on credits are never touched.
 */
export class ChangePlan {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly plans: PlanCatalog,
    private readonly allowance: GrantMonthlyAllowance,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    /** Told of every applied change (plan, billing period), in the change's transaction. */
    private readonly activity: AccountActivityListener = NO_ACCOUNT_ACTIVITY_LISTENER,
  ) {}

  async execute(input: ChangePlanInput): Promise<Result<ChangedPlan, UnknownPlan | ProfileNotFound | CreditError>> {
    const plan = this.plans.find(input.planId);
    if (!plan) return err(unknownPlan(input.planId));
    return this.uow.run(async () => {
      const profile = await this.profiles.findById(input.userId);
      if (!profile) return err(profileNotFound(input.userId));
      const now = this.clock.now();
      const planChanged = profile.subscriptionPlan !== plan.id;
      const anchor = input.period?.start ?? (planChanged ? now : profile.billingCycleStartDate);
      const updated: Profile = {
        ...profile,
        subscriptionPlan: plan.id,
        billingInterval: plan.interval,
        subscriptionId: input.subscriptionId !== undefined ? input.subscriptionId : profile.subscriptionId,
        subscriptionStatus: input.subscriptionStatus !== undefined ? input.subscriptionStatus : profile.subscriptionStatus,
        customerId: input.customerId ?? profile.customerId,
        billingCycleStartDate: anchor,
        billingCycleEndDate: input.period?.end ?? (planChanged ? null : profile.billingCycleEndDate),
        firstPurchasedDate: profile.firstPurchasedDate ?? (isPaidPlan(plan) ? now : null),
        subscriptionEndDate: input.subscriptionEndDate !== undefined ? input.subscriptionEndDate : profile.subscriptionEndDate,
        proMultiplier: input.proMultiplier ?? profile.proMultiplier,
        updatedAt: now,
      };
      await this.profiles.update(updated);
      const key = `plan-change:${input.changeKey ?? this.ids.next()}`;
      const cycle = await this.allowance.execute({ userId: profile.id, key });
      if (!cycle.ok) return cycle;
      await this.activity.record({ userId: profile.id, kind: 'plan_changed', at: now });
      return ok({ profile: updated, planChanged, cycle: cycle.value });
    });
  }
}
