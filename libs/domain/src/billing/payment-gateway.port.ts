import type { BillingInterval, PlanId } from '../plans/plan.entity.js';
import type { ProMultiplier } from '../profiles/profile.entity.js';
import type { Currency } from '../shared/money.js';
import type { Invoice } from './invoice.js';

/** Who is paying. `customerId` is the provider's customer, once one exists (profile customer_id). */
export interface PaymentCustomer {
  readonly userId: string;
  readonly email: string;
  readonly customerId: string | null;
}

/**
 * The provider's side of a subscription, in Kiln's words. Vendor statuses are mapped by the
 * adapter: anything paid and current is 'active', a failed renewal still in grace is 'past_due',
 * a subscription that never got paid is 'incomplete', anything ended is 'canceled'.
 */
export type SubscriptionSnapshotStatus = 'active' | 'past_due' | 'incomplete' | 'canceled';

export interface SubscriptionSnapshot {
  readonly id: string;
  readonly customerId: string;
  /**
   * The Kiln plan id when the adapter recognises the provider's product (live and test product
   * ids differ, SPEC §3), else the provider's id as is. Callers resolve it through the plan
   * catalog, so an unknown id falls back to free (SPEC §4).
   */
  readonly planId: string;
  readonly status: SubscriptionSnapshotStatus;
  readonly interval: BillingInterval;
  readonly currentPeriodStart: Date;
  readonly currentPeriodEnd: Date;
  /** Cancelled by the customer: stays active until currentPeriodEnd, then ends. */
  readonly cancelAtPeriodEnd: boolean;
  /** The plan multiplier bought (the subscription's quantity); absent when the provider does not say. */
  readonly multiplier?: ProMultiplier;
}

/**
 * Every call that changes something at the provider carries an idempotency key: a retry with the
 * same key (the fetch helper retries up to 3 times, SPEC §7) must not charge, cancel or open
 * anything twice. Reads need none.
 */
export interface IdempotentPaymentCall {
  readonly idempotencyKey: string;
}

export interface CheckoutRequest extends IdempotentPaymentCall {
  readonly planId: PlanId;
  readonly currency: Currency;
  /** 1x, 2x or 3x: the quantity charged (the price per period is the plan's times this, checkoutPrice). */
  readonly multiplier: ProMultiplier;
  readonly customer: PaymentCustomer;
}

export interface AddOnPaymentRequest extends IdempotentPaymentCall {
  readonly customer: PaymentCustomer;
  readonly currency: Currency;
}

/**
 * The payment provider (SPEC §7 Payment). Answers are URLs the browser is sent to; where to come
 * back to (success / canceled query values, SPEC §2) is adapter configuration. Methods reject
 * when the provider fails or refuses.
 */
export interface PaymentGateway {
  /** A hosted checkout page for subscribing `customer` to a plan, charged in `currency`. */
  createCheckoutSession(request: CheckoutRequest): Promise<string>;
  /** The provider's self-service portal (payment method, invoices, cancellation). */
  createCustomerPortal(request: { readonly customerId: string } & IdempotentPaymentCall): Promise<string>;
  /** Cancels at the end of the current period; answers the subscription as it now stands. */
  cancelSubscription(request: { readonly subscriptionId: string } & IdempotentPaymentCall): Promise<SubscriptionSnapshot>;
  /** The subscription as the provider sees it now (manual sync, SPEC §4). */
  fetchSubscription(subscriptionId: string): Promise<SubscriptionSnapshot>;
  /**
   * The customer's most recent subscription, or null: the manual sync right after checkout, when
   * the provider's webhook has not yet told Kiln the subscription id.
   */
  findLatestSubscription(customer: PaymentCustomer): Promise<SubscriptionSnapshot | null>;
  /** A one-time payment page for the add-on credit pack (SPEC §9). */
  createAddOnPayment(request: AddOnPaymentRequest): Promise<string>;
  /** The customer's invoices, newest first, at most INVOICE_HISTORY_LIMIT (the billing history). */
  listInvoices(customerId: string): Promise<readonly Invoice[]>;
}
