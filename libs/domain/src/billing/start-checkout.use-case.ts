import type { PaymentGateway } from './payment-gateway.port.js';
import { isPaidPlan } from '../plans/plan.entity.js';
import { type UnknownPlan, unknownPlan } from '../plans/plan.errors.js';
import type { PlanCatalog } from '../plans/plan-catalog.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { Currency } from '../shared/money.js';
import { type InvalidMultiplier, invalidMultiplier, isProMultiplier } from './checkout-price.js';
import { type CurrencyChanged, type NotPurchasable, currencyChanged, notPurchasable } from './billing.errors.js';

/** POST /api/payment/create-checkout-session: a hosted checkout URL for a paid plan, in the profile's currency. */
export class StartCheckout {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly plans: PlanCatalog,
    private readonly gateway: PaymentGateway,
    private readonly ids: IdGenerator,
  ) {}

  /**
   * `shownCurrency`: the currency the page showed; checkout refuses to charge another one.
   * `multiplier`: 1x (default), 2x or 3x the plan (SPEC §3), charged as the quantity.
   */
  async execute(input: {
    userId: string;
    planId: string;
    shownCurrency?: Currency;
    multiplier?: number;
  }): Promise<Result<{ url: string }, UnknownPlan | NotPurchasable | ProfileNotFound | CurrencyChanged | InvalidMultiplier>> {
    const multiplier = input.multiplier ?? 1;
    if (!isProMultiplier(multiplier)) return err(invalidMultiplier());
    const plan = this.plans.find(input.planId);
    if (!plan) return err(unknownPlan(input.planId));
    if (!isPaidPlan(plan)) return err(notPurchasable(plan.id));
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    if (input.shownCurrency !== undefined && input.shownCurrency !== profile.preferredCurrency) return err(currencyChanged(profile.preferredCurrency));
    const url = await this.gateway.createCheckoutSession({
      planId: plan.id,
      currency: profile.preferredCurrency,
      multiplier,
      customer: { userId: profile.id, email: profile.email, customerId: profile.customerId },
      idempotencyKey: `checkout:${profile.id}:${this.ids.next()}`,
    });
    return ok({ url });
  }
}
