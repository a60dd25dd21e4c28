import {
  type AddOnPaymentRequest,
  type CheckoutRequest,
  type Clock,
  type Currency,
  type IdGenerator,
  type IdempotentPaymentCall,
  type PaymentCustomer,
  type PaymentEvent,
  type PaymentGateway,
  type PlanId,
  type SubscriptionSnapshot,
  addMonthsClamped,
} from '@kiln/domain';

/** A checkout started through the local gateway, shown by the API's test checkout page. */
export interface LocalCheckoutSession {
  readonly id: string;
  readonly kind: 'subscription' | 'add_on';
  readonly userId: string;
  readonly email: string;
  readonly planId: PlanId | null;
  readonly currency: Currency;
  readonly customerId: string;
  /** Set once paid: the events the payment produced (replayed as is if completed again). */
  completed: readonly PaymentEvent[] | null;
  canceled: boolean;
}

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
 * to HandlePaymentEvent. State lives in memory (a restart forgets local subscriptions).
 */
export class LocalPaymentGateway implements PaymentGateway {
  private readonly sessions = new Map<string, LocalCheckoutSession>();
  private readonly subscriptions = new Map<string, SubscriptionSnapshot & { readonly userId: string }>();
  private readonly keys = new Map<string, string>();

  constructor(
    readonly config: LocalGatewayConfig,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    return this.open(request.idempotencyKey, 'subscription', request.customer, request.planId, request.currency);
  }

  async createAddOnPayment(request: AddOnPaymentRequest): Promise<string> {
    return this.open(request.idempotencyKey, 'add_on', request.customer, null, request.currency);
  }

  async createCustomerPortal(request: { readonly customerId: string } & IdempotentPaymentCall): Promise<string> {
    return `${this.config.apiUrl}/local-checkout/portal/${encodeURIComponent(request.customerId)}`;
  }

  async cancelSubscription(request: { readonly subscriptionId: string } & IdempotentPaymentCall): Promise<SubscriptionSnapshot> {
    const sub = this.requireSubscription(request.subscriptionId);
    const canceled = { ...sub, cancelAtPeriodEnd: true };
    this.subscriptions.set(sub.id, canceled);
    return strip(canceled);
  }

  async fetchSubscription(subscriptionId: string): Promise<SubscriptionSnapshot> {
    return strip(this.requireSubscription(subscriptionId));
  }

  async findLatestSubscription(customer: PaymentCustomer): Promise<SubscriptionSnapshot | null> {
    const subs = [...this.subscriptions.values()].filter((s) => s.userId === customer.userId);
    const latest = subs.sort((a, b) => b.currentPeriodStart.getTime() - a.currentPeriodStart.getTime())[0];
    return latest ? strip(latest) : null;
  }

  session(id: string): LocalCheckoutSession | undefined {
    return this.sessions.get(id);
  }

  /** The Kiln user a local subscription belongs to. */
  ownerOf(subscriptionId: string): string | null {
    return this.subscriptions.get(subscriptionId)?.userId ?? null;
  }

  /** The user's subscriptions that have not ended (for the portal page). */
  subscriptionsOfCustomer(customerId: string): SubscriptionSnapshot[] {
    return [...this.subscriptions.values()].filter((s) => s.customerId === customerId && s.status !== 'canceled').map(strip);
  }

  /** Pays a session: the events a provider would send. Completing it again answers the same events. */
  complete(sessionId: string): { events: readonly PaymentEvent[]; returnUrl: string } | null {
    const session = this.sessions.get(sessionId);
    if (!session || session.canceled) return null;
    if (!session.completed) {
      const now = this.clock.now();
      const checkout = { id: this.eventId(), occurredAt: now, type: 'checkout.completed' as const, userId: session.userId, customerId: session.customerId };
      if (session.kind === 'add_on') {
        session.completed = [{ ...checkout, mode: 'add_on', paymentId: `pi_local_${session.id}`, packs: 1 }];
      } else {
        const planId = session.planId ?? 'pro_monthly';
        const interval = planId === 'pro_annual' ? 'annual' : 'monthly';
        const sub = {
          id: `sub_local_${this.ids.next()}`,
          userId: session.userId,
          customerId: session.customerId,
          planId,
          status: 'active' as const,
          interval: interval as 'annual' | 'monthly',
          currentPeriodStart: now,
          currentPeriodEnd: addMonthsClamped(now, interval === 'annual' ? 12 : 1),
          cancelAtPeriodEnd: false,
        };
        this.subscriptions.set(sub.id, sub);
        session.completed = [
          { ...checkout, mode: 'subscription', subscriptionId: sub.id },
          { id: this.eventId(), occurredAt: now, type: 'subscription.created', userId: sub.userId, subscription: strip(sub) },
          this.invoicePaid(sub, now),
        ];
      }
    }
    const returnPath = session.kind === 'add_on' ? '/settings?success=true' : '/pricing?success=true';
    return { events: session.completed, returnUrl: `${this.config.appUrl}${returnPath}` };
  }

  /** Abandons a session: nothing is charged; answers where the browser returns. */
  cancel(sessionId: string): string | null {
    const session = this.sessions.get(sessionId);
    if (!session) return null;
    if (!session.completed) session.canceled = true;
    const returnPath = session.kind === 'add_on' ? '/settings?canceled=true' : '/pricing?canceled=true';
    return `${this.config.appUrl}${returnPath}`;
  }

  /** Simulates a renewal now: a new period starting now, paid by a new invoice. */
  renew(subscriptionId: string): readonly PaymentEvent[] {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') return [];
    const now = this.clock.now();
    const renewed = { ...sub, currentPeriodStart: now, currentPeriodEnd: addMonthsClamped(now, sub.interval === 'annual' ? 12 : 1) };
    this.subscriptions.set(sub.id, renewed);
    return [
      { id: this.eventId(), occurredAt: now, type: 'subscription.updated', userId: sub.userId, subscription: strip(renewed) },
      this.invoicePaid(renewed, now),
    ];
  }

  /** Simulates the end of the current period now: a subscription set to cancel ends, any other renews. */
  endPeriod(subscriptionId: string): readonly PaymentEvent[] {
    const sub = this.requireSubscription(subscriptionId);
    if (sub.status === 'canceled') return [];
    if (!sub.cancelAtPeriodEnd) return this.renew(subscriptionId);
    const now = this.clock.now();
    const ended = { ...sub, status: 'canceled' as const, currentPeriodEnd: now };
    this.subscriptions.set(sub.id, ended);
    return [{ id: this.eventId(), occurredAt: now, type: 'subscription.deleted', userId: sub.userId, subscription: strip(ended) }];
  }

  private open(key: string, kind: LocalCheckoutSession['kind'], customer: CheckoutRequest['customer'], planId: PlanId | null, currency: Currency): string {
    let id = this.keys.get(key);
    if (!id) {
      id = `cs_local_${this.ids.next()}`;
      this.keys.set(key, id);
      this.sessions.set(id, {
        id,
        kind,
        userId: customer.userId,
        email: customer.email,
        planId,
        currency,
        customerId: customer.customerId ?? `cus_local_${customer.userId}`,
        completed: null,
        canceled: false,
      });
    }
    return `${this.config.apiUrl}/local-checkout/${id}`;
  }

  private invoicePaid(sub: SubscriptionSnapshot & { readonly userId: string }, now: Date): PaymentEvent {
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

  private eventId(): string {
    return `evt_local_${this.ids.next()}`;
  }

  private requireSubscription(id: string): SubscriptionSnapshot & { readonly userId: string } {
    const sub = this.subscriptions.get(id);
    if (!sub) throw new Error(`No such local subscription: ${id}`);
    return sub;
  }
}

function strip(sub: SubscriptionSnapshot & { readonly userId?: string }): SubscriptionSnapshot {
  const { userId: _userId, ...snapshot } = sub;
  return snapshot;
}
