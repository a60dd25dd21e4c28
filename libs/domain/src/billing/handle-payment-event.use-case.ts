import type { CreditError } from '../credits/credit.errors.js';
import type { GrantAddOnCredits } from '../credits/grant-add-on-credits.use-case.js';
import type { SubscriptionSnapshot } from './payment-gateway.port.js';
import type { ChangePlan } from '../accounts/change-plan.use-case.js';
import { isPaidPlan } from '../plans/plan.entity.js';
import type { UnknownPlan } from '../plans/plan.errors.js';
import type { PlanCatalog } from '../plans/plan-catalog.js';
import type { ProfileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { type Result, ok } from '../shared/result.js';
import type { UnitOfWork } from '../shared/unit-of-work.port.js';
import type { PaymentEvent } from './payment-event.js';
import type { ProcessedPaymentEvents, SubscriptionStateVersions } from './processed-payment-events.port.js';

/** What handling an event did — for logs and tests; every outcome is a 200 to the provider. */
export type PaymentEventOutcome =
  | 'applied'
  | 'duplicate'
  /** An older subscription state than one already applied. */
  | 'stale'
  /** Nothing to do: unknown user, a subscription that is not the user's current one, a state that changes no plan. */
  | 'ignored';

export type PaymentEventError = UnknownPlan | ProfileNotFound | CreditError;

/**
 * Applies a payment provider's event exactly once: the event id is recorded and the effect
 * written in one UnitOfWork, so a duplicate changes nothing and a failure rolls both back (the
 * provider retries). Subscription states move the profile through `ChangePlan` (the event id is
 * the change key); an invoice paid starts the billing period it pays for; an add-on checkout
 * grants its packs keyed by the payment id. Cancelling keeps add-on and referral credits.
 */
export class HandlePaymentEvent {
  constructor(
    private readonly processed: ProcessedPaymentEvents,
    private readonly versions: SubscriptionStateVersions,
    private readonly profiles: ProfileRepository,
    private readonly plans: PlanCatalog,
    private readonly changePlan: ChangePlan,
    private readonly grantAddOnCredits: GrantAddOnCredits,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(event: PaymentEvent): Promise<Result<PaymentEventOutcome, PaymentEventError>> {
    return this.uow.run(async () => {
      if (!(await this.processed.record(event.id, event.type, event.occurredAt))) return ok('duplicate' as const);
      const result = await this.apply(event);
      // A domain error must not leave the id recorded: throwing rolls the transaction back.
      if (!result.ok) throw new PaymentEventRejected(result.error);
      return result;
    }).catch((e: unknown) => {
      if (e instanceof PaymentEventRejected) return { ok: false as const, error: e.error };
      throw e;
    });
  }

  /**
   * Applies a subscription as the provider reports it at `at` (webhook or manual sync). Runs in
   * the caller's UnitOfWork; older states than the last applied one are ignored.
   */
  async applySubscription(
    userId: string,
    subscription: SubscriptionSnapshot,
    at: Date,
    changeKey: string,
    deleted = false,
  ): Promise<Result<PaymentEventOutcome, PaymentEventError>> {
    const profile = await this.lockedProfile(userId);
    if (!profile) return ok('ignored');
    const ended = deleted || subscription.status === 'canceled';
    // An ended or unpaid subscription that is not the user's current one (an old one, say) changes nothing.
    if ((ended || subscription.status === 'incomplete') && profile.subscriptionId !== null && profile.subscriptionId !== subscription.id) {
      return ok('ignored');
    }
    if (!(await this.versions.advance(userId, at))) return ok('stale');
    if (subscription.status === 'incomplete') return ok('ignored');
    const period = { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd };
    if (ended) {
      const r = await this.changePlan.execute({
        userId,
        planId: 'free',
        changeKey,
        subscriptionId: null,
        subscriptionStatus: 'canceled',
        customerId: subscription.customerId,
        subscriptionEndDate: subscription.currentPeriodEnd,
      });
      return r.ok ? ok('applied') : r;
    }
    const plan = this.plans.resolve(subscription.planId);
    const r = await this.changePlan.execute({
      userId,
      planId: plan.id,
      changeKey,
      period: isPaidPlan(plan) ? period : null,
      subscriptionId: subscription.id,
      subscriptionStatus: subscription.status,
      customerId: subscription.customerId,
      subscriptionEndDate: subscription.cancelAtPeriodEnd ? subscription.currentPeriodEnd : null,
      // The multiplier bought scales the allowance (monthlyAllowance); unknown: the profile's stays.
      ...(subscription.multiplier === undefined ? {} : { proMultiplier: subscription.multiplier }),
    });
    return r.ok ? ok('applied') : r;
  }

  /** The user's profile, read after taking the user's payment lock (so it is current). */
  private async lockedProfile(userId: string) {
    if (!(await this.profiles.findById(userId))) return null;
    await this.versions.lock(userId);
    return this.profiles.findById(userId);
  }

  private async apply(event: PaymentEvent): Promise<Result<PaymentEventOutcome, PaymentEventError>> {
    switch (event.type) {
      case 'subscription.created':
      case 'subscription.updated':
      case 'subscription.deleted':
        if (event.userId === null) return ok('ignored');
        return this.applySubscription(event.userId, event.subscription, event.occurredAt, event.id, event.type === 'subscription.deleted');
      case 'invoice.paid': {
        if (event.userId === null) return ok('ignored');
        const profile = await this.lockedProfile(event.userId);
        // The subscription events carry the period too; an invoice only moves the cycle of the
        // user's current paid subscription (one that arrives first is covered by them).
        if (!profile || profile.subscriptionId !== event.subscriptionId) return ok('ignored');
        const plan = this.plans.resolve(profile.subscriptionPlan);
        if (!isPaidPlan(plan)) return ok('ignored');
        const r = await this.changePlan.execute({ userId: profile.id, planId: plan.id, changeKey: `invoice:${event.invoiceId}`, period: event.period });
        return r.ok ? ok('applied') : r;
      }
      case 'invoice.payment_failed':
        // The subscription moves to past_due through its own update event.
        return ok('ignored');
      case 'checkout.completed': {
        if (event.mode === 'add_on') {
          const r = await this.grantAddOnCredits.execute({ userId: event.userId, packs: event.packs, paymentKey: event.paymentId });
          if (!r.ok) return r.error.code === 'PROFILES.NOT_FOUND' ? ok('ignored') : r;
          return ok('applied');
        }
        // The subscription's own created/updated events carry its state and customer; writing the
        // profile here as well would race with them for nothing.
        return ok('ignored');
      }
    }
  }
}

class PaymentEventRejected extends Error {
  constructor(readonly error: PaymentEventError) {
    super(error.message);
  }
}
