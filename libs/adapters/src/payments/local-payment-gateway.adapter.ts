import {
  ADDON_PACK_CREDITS,
  ADDON_PACK_PRICE_MINOR,
  type AddOnPaymentRequest,
  INVOICE_HISTORY_LIMIT,
  type Invoice,
  PlanCatalog,
  type CheckoutRequest,
  type Clock,
  type Currency,
  type IdGenerator,
  type IdempotentPaymentCall,
  type PaymentCustomer,
  type PaymentEvent,
  type PaymentGateway,
  type PlanId,
  type ProMultiplier,
  type SubscriptionSnapshot,
  addMonthsClamped,
} from '@kiln/domain';
import { InMemoryLocalCheckoutStore, type LocalCheckoutSession, type LocalCheckoutStore, type LocalSubscription } from './local-checkout-store.js';

export interface LocalGatewayConfig {
  /** The API's public origin: checkout pages live at `<apiUrl>/local-checkout/<id>`. */
  readonly apiUrl: string;
  /** The web app's origin, where checkout returns (`/pricing?success=true` / `?canceled=true`). */
  readonly appUrl: string;
}

/**
 * The payment provider for a machine without a Stripe key: checkout, portal and add-on answer
 * URLs of the API's own TEST CHECKOUT page, and paying, cancelling, renewing or ending a period
 * there produces the same normalized PaymentEvents a Stripe webhook would — the caller feeds them
 * to HandlePaymentEvent. Sessions and subscriptions live in a LocalCheckoutStore (PostgreSQL in
 * the API, so a restart keeps them; memory by default).
 */
export class LocalPaymentGateway implements PaymentGateway {
  constructor(
    readonly config: LocalGatewayConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly store: LocalCheckoutStore = new InMemoryLocalCheckoutStore(),
    private readonly plans: PlanCatalog = PlanCatalog.standard(),
  ) {}

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    return this.open(request.idempotencyKey, 'subscription', request.customer, request.planId, request.currency, request.multiplier);
  }

  async createAddOnPayment(request: AddOnPaymentRequest): Promise<string> {
    return this.open(request.idempotencyKey, 'add_on', request.customer, null, request.currency);
  }

  async createCustomerPortal(request: { readonly customerId: string } & IdempotentPaymentCall): Promise<string> {
    return `${this.config.apiUrl}/local-checkout/portal/${encodeURIComponent(request.customerId)}`;
  }

  async cancelSubscription(request: { readonly subscriptionId: string } & IdempotentPaymentCall): Promise<SubscriptionSnapshot> {
    const sub = await this.requireSubscription(request.subscriptionId);
    const canceled = { ...sub, cancelAtPeriodEnd: true };
    await this.store.saveSubscription(canceled);
    return strip(canceled);
  }

  async fetchSubscription(subscriptionId: string): Promise<SubscriptionSnapshot> {
    return strip(await this.requireSubscription(subscriptionId));
  }

  async findLatestSubscription(customer: PaymentCustomer): Promise<SubscriptionSnapshot | null> {
    const subs = await this.store.subscriptionsOfUser(customer.userId);
    const latest = subs.sort((a, b) => b.currentPeriodStart.getTime() - a.currentPeriodStart.getTime())[0];
    return latest ? strip(latest) : null;
  }

  /**
   * The local invoices: one per paid test checkout, at the price the checkout page showed.
   * Renewals made with the dev hook are not invoiced here (docs/decisions.md).
   */
  async listInvoices(customerId: string): Promise<readonly Invoice[]> {
    const paid = await this.store.paidSessionsOfCustomer(customerId);
    return paid
      .map((session) => this.invoiceOf(session))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .slice(0, INVOICE_HISTORY_LIMIT);
  }

  session(id: string): Promise<LocalCheckoutSession | null> {
    return this.store.session(id);
  }

  /** The Kiln user a local subscription belongs to. */
  async ownerOf(subscriptionId: string): Promise<string | null> {
    return (await this.store.subscription(subscriptionId))?.userId ?? null;
  }

  /** The user's subscriptions that have not ended (for the portal page). */
  async subscriptionsOfCustomer(customerId: string): Promise<SubscriptionSnapshot[]> {
    return (await this.store.subscriptionsOfCustomer(customerId)).filter((s) => s.status !== 'canceled').map(strip);
  }

  /** Pays a session: the events a provider would send. Completing it again answers the same events. */
  async complete(sessionId: string): Promise<{ events: readonly PaymentEvent[]; returnUrl: string } | null> {
    const session = await this.store.session(sessionId);
    if (!session || session.canceled) return null;
    let paid = session;
    if (session.completed === null) {
      const { events, subscription } = this.payment(session);
      // Stored atomically: a concurrent payment of the same session answers the winner's events.
      paid = (await this.store.completeSession(session.id, events, subscription)) ?? session;
    }
    if (paid.completed === null) return null; // canceled meanwhile
    const returnPath = paid.kind === 'add_on' ? '/settings?success=true' : '/pricing?success=true';
    return { events: paid.completed, returnUrl: `${this.config.appUrl}${returnPath}` };
  }

  /** Abandons a session: nothing is charged; answers where the browser returns. */
  async cancel(sessionId: string): Promise<string | null> {
    const session = await this.store.cancelSession(sessionId);
    if (!session) return null;
    const returnPath = session.kind === 'add_on' ? '/settings?canceled=true' : '/pricing?canceled=true';
    return `${this.config.appUrl}${returnPath}`;
  }

  /** Simulates a renewal now: a new period starting now, paid by a new invoice. */
  async renew(subscriptionId: string): Promise<readonly PaymentEvent[]> {
    const sub = await this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') return [];
    const now = this.clock.now();
    const renewed = { ...sub, currentPeriodStart: now, currentPeriodEnd: addMonthsClamped(now, sub.interval === 'annual' ? 12 : 1) };
    await this.store.saveSubscription(renewed);
    return [
      { id: this.eventId(), occurredAt: now, type: 'subscription.updated', userId: sub.userId, subscription: strip(renewed) },
      this.invoicePaid(renewed, now),
    ];
  }

  /** Simulates the end of the current period now: a subscription set to cancel ends, any other renews. */
  async endPeriod(subscriptionId: string): Promise<readonly PaymentEvent[]> {
    const sub = await this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') return [];
    if (!sub.cancelAtPeriodEnd) return this.renew(subscriptionId);
    const now = this.clock.now();
    const ended = { ...sub, status: 'canceled' as const, currentPeriodEnd: now };
    await this.store.saveSubscription(ended);
    return [{ id: this.eventId(), occurredAt: now, type: 'subscription.deleted', userId: sub.userId, subscription: strip(ended) }];
  }

  /** What paying a session produces: its events and, for a plan, the new subscription. */
  private payment(session: LocalCheckoutSession): { events: readonly PaymentEvent[]; subscription: LocalSubscription | null } {
    const now = this.clock.now();
    const checkout = { id: this.eventId(), occurredAt: now, type: 'checkout.completed' as const, userId: session.userId, customerId: session.customerId };
    if (session.kind === 'add_on') return { events: [{ ...checkout, mode: 'add_on', paymentId: `pi_local_${session.id}`, packs: 1 }], subscription: null };
    const planId = session.planId ?? 'pro_monthly';
    const interval = planId === 'pro_annual' ? 'annual' : 'monthly';
    const sub: LocalSubscription = {
      id: `sub_local_${this.ids.next()}`,
      userId: session.userId,
      customerId: session.customerId,
      planId,
      status: 'active',
      interval,
      currentPeriodStart: now,
      currentPeriodEnd: addMonthsClamped(now, interval === 'annual' ? 12 : 1),
      cancelAtPeriodEnd: false,
      // The quantity bought, as a provider's subscription carries it.
      multiplier: session.multiplier ?? 1,
    };
    return {
      events: [
        { ...checkout, mode: 'subscription', subscriptionId: sub.id },
        { id: this.eventId(), occurredAt: now, type: 'subscription.created', userId: sub.userId, subscription: strip(sub) },
        this.invoicePaid(sub, now),
      ],
      subscription: sub,
    };
  }

  private async open(
    key: string,
    kind: LocalCheckoutSession['kind'],
    customer: CheckoutRequest['customer'],
    planId: PlanId | null,
    currency: Currency,
    multiplier?: ProMultiplier,
  ): Promise<string> {
    const session = await this.store.openSession(key, {
      id: `cs_local_${this.ids.next()}`,
      kind,
      userId: customer.userId,
      email: customer.email,
      planId,
      currency,
      ...(multiplier === undefined ? {} : { multiplier }),
      customerId: customer.customerId ?? `cus_local_${customer.userId}`,
      completed: null,
      canceled: false,
    });
    return `${this.config.apiUrl}/local-checkout/${session.id}`;
  }

  private invoicePaid(sub: LocalSubscription, now: Date): PaymentEvent {
    return {
      id: this.eventId(),
      occurredAt: now,
      type: 'invoice.paid',
      invoiceId: `in_local_${this.ids.next()}`,
      userId: sub.userId,
      subscriptionId: sub.id,
      period: { start: sub.currentPeriodStart, end: sub.currentPeriodEnd },
    };
  }

  private invoiceOf(session: LocalCheckoutSession): Invoice {
    const addOn = session.kind === 'add_on';
    const plan = addOn ? null : this.plans.resolve(session.planId);
    return {
      id: `in_local_${session.id}`,
      number: null,
      status: 'paid',
      amountMinor: plan === null ? ADDON_PACK_PRICE_MINOR[session.currency] : plan.prices[session.currency],
      currency: session.currency,
      description: plan === null ? `${ADDON_PACK_CREDITS} add-on credits` : plan.name,
      createdAt: session.completed?.[0]?.occurredAt ?? this.clock.now(),
      url: null,
    };
  }

  private eventId(): string {
    return `evt_local_${this.ids.next()}`;
  }

  private async requireSubscription(id: string): Promise<LocalSubscription> {
    const sub = await this.store.subscription(id);
    if (!sub) throw new Error(`No such local subscription: ${id}`);
    return sub;
  }
}

function strip(sub: SubscriptionSnapshot & { readonly userId?: string }): SubscriptionSnapshot {
  const { userId: _userId, ...snapshot } = sub;
  return snapshot;
}
