import type { PaymentGateway, SubscriptionSnapshot } from './payment-gateway.port.js';
import type { BillingInterval } from '../plans/plan.entity.js';
import type { PlanCatalog } from '../plans/plan-catalog.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { Clock } from '../shared/clock.port.js';
import type { Currency } from '../shared/money.js';
import { type Result, err, ok } from '../shared/result.js';
import type { UnitOfWork } from '../shared/unit-of-work.port.js';
import { type NoSubscription, noSubscription } from './billing.errors.js';
import type { HandlePaymentEvent, PaymentEventError } from './handle-payment-event.use-case.js';

export interface ForcedUpdate {
  readonly status: 'success';
  readonly message: string;
  /** price in major units of `currency` (SPEC §7 shape). */
  readonly plan: { readonly id: string; readonly price: number; readonly currency: Currency; readonly billing_interval: BillingInterval | null };
  readonly subscription: SubscriptionSnapshot;
}

/**
 * POST /api/payment/force-update-subscription (manual sync, SPEC §4): re-reads the subscription
 * from the provider and applies it through the same path as a webhook, stamped with now.
 */
export class ForceUpdateSubscription {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly plans: PlanCatalog,
    private readonly gateway: PaymentGateway,
    private readonly events: HandlePaymentEvent,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: string }): Promise<Result<ForcedUpdate, NoSubscription | ProfileNotFound | PaymentEventError>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    const snapshot = profile.subscriptionId
      ? await this.gateway.fetchSubscription(profile.subscriptionId)
      : await this.gateway.findLatestSubscription({ userId: profile.id, email: profile.email, customerId: profile.customerId });
    if (!snapshot) return err(noSubscription());
    const at = this.clock.now();
    const applied = await this.uow.run(() => this.events.applySubscription(profile.id, snapshot, at, `sync:${snapshot.id}:${at.toISOString()}`));
    if (!applied.ok) return applied;
    const now = (await this.profiles.findById(input.userId)) ?? profile;
    const plan = this.plans.resolve(now.subscriptionPlan);
    return ok({
      status: 'success',
      message: 'Subscription updated',
      plan: { id: plan.id, price: plan.prices[now.preferredCurrency] / 100, currency: now.preferredCurrency, billing_interval: plan.interval },
      subscription: snapshot,
    });
  }
}
