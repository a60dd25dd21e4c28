import {
  type AddOnPaymentRequest,
  type BillingInterval,
  type CheckoutRequest,
  INVOICE_HISTORY_LIMIT,
  INVOICE_STATUSES,
  type Invoice,
  type InvoiceStatus,
  type Currency,
  type IdempotentPaymentCall,
  type PaymentCustomer,
  type PaymentGateway,
  type SubscriptionSnapshot,
  type SubscriptionSnapshotStatus,
} from '@kiln/domain';
import { isProMultiplier } from '@kiln/domain';
import Stripe from 'stripe';

/** Stripe price ids per purchasable thing and currency (STRIPE_PRICE_* variables). */
export interface StripePriceIds {
  readonly pro_monthly: Readonly<Record<Currency, string>>;
  readonly pro_annual: Readonly<Record<Currency, string>>;
  readonly addon: Readonly<Record<Currency, string>>;
}

export interface StripeGatewayConfig {
  readonly secretKey: string;
  readonly prices: StripePriceIds;
  /** Where checkout returns: `<appUrl>/pricing?success=true` or `?canceled=true`; the portal returns to `<appUrl>/settings`. */
  readonly appUrl: string;
  /** For tests: a local server standing in for api.stripe.com. */
  readonly endpoint?: { readonly host: string; readonly port: number; readonly protocol: 'http' | 'https' };
  readonly maxNetworkRetries?: number;
}

/** Builds the SDK client the gateway and the webhook verifier share. */
export function createStripeClient(config: Pick<StripeGatewayConfig, 'secretKey' | 'endpoint' | 'maxNetworkRetries'>): Stripe {
  return new Stripe(config.secretKey, {
    maxNetworkRetries: config.maxNetworkRetries ?? 2,
    timeout: 20_000,
    ...(config.endpoint ? { host: config.endpoint.host, port: config.endpoint.port, protocol: config.endpoint.protocol } : {}),
  });
}

/**
 * The PaymentGateway on Stripe: hosted Checkout (subscription or a one-time add-on payment),
 * the billing portal, cancel at period end and subscription reads. Every mutating call passes the
 * caller's idempotency key; the SDK's own network retries resend the same key.
 */
export class StripePaymentGateway implements PaymentGateway {
  private readonly stripe: Stripe;

  constructor(private readonly config: StripeGatewayConfig, stripe?: Stripe) {
    this.stripe = stripe ?? createStripeClient(config);
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    if (request.planId !== 'pro_monthly' && request.planId !== 'pro_annual') throw new Error(`No Stripe price for plan ${request.planId}`);
    const price = this.config.prices[request.planId][request.currency];
    const userId = request.customer.userId;
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        client_reference_id: userId,
        ...(request.customer.customerId ? { customer: request.customer.customerId } : { customer_email: request.customer.email }),
        // The plan multiplier is the quantity: Stripe charges the price times it (integers, SPEC §3 1x/2x/3x).
        line_items: [{ price, quantity: request.multiplier }],
        metadata: { user_id: userId, kind: 'subscription' },
        subscription_data: { metadata: { user_id: userId } },
        success_url: `${this.config.appUrl}/pricing?success=true`,
        cancel_url: `${this.config.appUrl}/pricing?canceled=true`,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return session.url;
  }

  async createCustomerPortal(request: { readonly customerId: string } & IdempotentPaymentCall): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create(
      { customer: request.customerId, return_url: `${this.config.appUrl}/settings` },
      { idempotencyKey: request.idempotencyKey },
    );
    return session.url;
  }

  async cancelSubscription(request: { readonly subscriptionId: string } & IdempotentPaymentCall): Promise<SubscriptionSnapshot> {
    const sub = await this.stripe.subscriptions.update(request.subscriptionId, { cancel_at_period_end: true }, { idempotencyKey: request.idempotencyKey });
    return toSnapshot(sub, this.config.prices);
  }

  async fetchSubscription(subscriptionId: string): Promise<SubscriptionSnapshot> {
    return toSnapshot(await this.stripe.subscriptions.retrieve(subscriptionId), this.config.prices);
  }

  async findLatestSubscription(customer: PaymentCustomer): Promise<SubscriptionSnapshot | null> {
    // By customer when known (list is strongly consistent); else by the user id set in the
    // subscription's metadata at checkout (search may lag by up to a minute).
    const found = customer.customerId
      ? await this.stripe.subscriptions.list({ customer: customer.customerId, status: 'all', limit: 1 })
      : await this.stripe.subscriptions.search({ query: `metadata['user_id']:'${customer.userId.replace(/'/g, "\\'")}'`, limit: 1 });
    const sub = found.data[0];
    return sub ? toSnapshot(sub, this.config.prices) : null;
  }

  async createAddOnPayment(request: AddOnPaymentRequest): Promise<string> {
    const userId = request.customer.userId;
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: userId,
        ...(request.customer.customerId ? { customer: request.customer.customerId } : { customer_email: request.customer.email }),
        line_items: [{ price: this.config.prices.addon[request.currency], quantity: 1 }],
        metadata: { user_id: userId, kind: 'add_on', packs: '1' },
        success_url: `${this.config.appUrl}/settings?success=true`,
        cancel_url: `${this.config.appUrl}/settings?canceled=true`,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return session.url;
  }

  /** `GET /v1/invoices?customer=…` (Stripe lists newest first); drafts are not history yet. */
  async listInvoices(customerId: string): Promise<readonly Invoice[]> {
    const page = await this.stripe.invoices.list({ customer: customerId, limit: INVOICE_HISTORY_LIMIT });
    return page.data.filter((i) => i.status !== 'draft').map(toInvoice);
  }
}

/** A Stripe invoice as a line of the billing history (amounts stay integer minor units). */
export function toInvoice(invoice: Stripe.Invoice): Invoice {
  const status: InvoiceStatus = (INVOICE_STATUSES as readonly string[]).includes(invoice.status ?? '') ? (invoice.status as InvoiceStatus) : 'open';
  if (!Number.isSafeInteger(invoice.total)) throw new Error(`Stripe invoice ${invoice.id} has no integer total`);
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? null,
    status,
    amountMinor: invoice.total,
    currency: invoice.currency.toUpperCase(),
    description: invoice.lines?.data[0]?.description ?? invoice.description ?? 'Invoice',
    createdAt: new Date(invoice.created * 1000),
    url: invoice.hosted_invoice_url ?? null,
  };
}

const STATUS: Readonly<Record<string, SubscriptionSnapshotStatus>> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  incomplete: 'incomplete',
  paused: 'incomplete',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
};

/** The Kiln plan a Stripe price id stands for, else the price id itself (resolves to free). */
export function planForPrice(priceId: string, prices: StripePriceIds): string {
  for (const plan of ['pro_monthly', 'pro_annual'] as const) {
    if (Object.values(prices[plan]).includes(priceId)) return plan;
  }
  return priceId;
}

/** A Stripe subscription in Kiln's words (the period lives on its first item since API 2025-03-31). */
export function toSnapshot(sub: Stripe.Subscription, prices: StripePriceIds): SubscriptionSnapshot {
  const item = sub.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${sub.id} has no items`);
  const interval: BillingInterval = item.price.recurring?.interval === 'year' ? 'annual' : 'monthly';
  return {
    id: sub.id,
    customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    planId: planForPrice(item.price.id, prices),
    status: STATUS[sub.status] ?? 'incomplete',
    interval,
    currentPeriodStart: new Date(item.current_period_start * 1000),
    currentPeriodEnd: new Date(item.current_period_end * 1000),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    // The quantity is the multiplier bought; one Kiln never sells (changed in Stripe's dashboard) is left unsaid.
    ...(isProMultiplier(item.quantity) ? { multiplier: item.quantity } : {}),
  };
}
