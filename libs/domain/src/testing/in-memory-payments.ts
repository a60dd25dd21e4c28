import { INVOICE_HISTORY_LIMIT, type Invoice } from '../billing/invoice.js';
import type { ProcessedPaymentEvents, SubscriptionStateVersions } from '../billing/processed-payment-events.port.js';
import type {
  AddOnPaymentRequest,
  CheckoutRequest,
  IdempotentPaymentCall,
  PaymentCustomer,
  PaymentGateway,
  SubscriptionSnapshot,
} from '../billing/payment-gateway.port.js';

export class InMemoryProcessedPaymentEvents implements ProcessedPaymentEvents {
  readonly ids = new Set<string>();
  async record(eventId: string): Promise<boolean> {
    if (this.ids.has(eventId)) return false;
    this.ids.add(eventId);
    return true;
  }
}

export class InMemorySubscriptionStateVersions implements SubscriptionStateVersions {
  private readonly at = new Map<string, number>();
  async lock(): Promise<void> {}
  async advance(userId: string, at: Date): Promise<boolean> {
    const stored = this.at.get(userId);
    if (stored !== undefined && at.getTime() < stored) return false;
    this.at.set(userId, at.getTime());
    return true;
  }
}

/** A payment provider in memory: answers fake URLs, keeps subscriptions tests put in it, records every call. */
export class InMemoryPaymentGateway implements PaymentGateway {
  readonly subscriptions = new Map<string, SubscriptionSnapshot>();
  /** Which user each subscription belongs to (the provider's metadata), for findLatestSubscription. */
  readonly owners = new Map<string, string>();
  readonly calls: { method: string; request: unknown }[] = [];

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    this.calls.push({ method: 'createCheckoutSession', request });
    return `https://pay.test/checkout/${request.planId}/${request.currency}/${request.customer.userId}`;
  }
  async createCustomerPortal(request: { readonly customerId: string } & IdempotentPaymentCall): Promise<string> {
    this.calls.push({ method: 'createCustomerPortal', request });
    return `https://pay.test/portal/${request.customerId}`;
  }
  async cancelSubscription(request: { readonly subscriptionId: string } & IdempotentPaymentCall): Promise<SubscriptionSnapshot> {
    this.calls.push({ method: 'cancelSubscription', request });
    const sub = this.subscriptions.get(request.subscriptionId);
    if (!sub) throw new Error(`No such subscription: ${request.subscriptionId}`);
    const canceled = { ...sub, cancelAtPeriodEnd: true };
    this.subscriptions.set(sub.id, canceled);
    return canceled;
  }
  async fetchSubscription(subscriptionId: string): Promise<SubscriptionSnapshot> {
    this.calls.push({ method: 'fetchSubscription', request: subscriptionId });
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription: ${subscriptionId}`);
    return sub;
  }
  async findLatestSubscription(customer: PaymentCustomer): Promise<SubscriptionSnapshot | null> {
    this.calls.push({ method: 'findLatestSubscription', request: customer });
    const subs = [...this.subscriptions.values()].filter((s) =>
      customer.customerId ? s.customerId === customer.customerId : this.owners.get(s.id) === customer.userId,
    );
    return subs.sort((a, b) => b.currentPeriodStart.getTime() - a.currentPeriodStart.getTime())[0] ?? null;
  }
  async createAddOnPayment(request: AddOnPaymentRequest): Promise<string> {
    this.calls.push({ method: 'createAddOnPayment', request });
    return `https://pay.test/addon/${request.currency}/${request.customer.userId}`;
  }
  /** Invoices tests put in, by customer; `down` makes the provider unreachable. */
  readonly invoices = new Map<string, Invoice[]>();
  down = false;
  async listInvoices(customerId: string): Promise<readonly Invoice[]> {
    this.calls.push({ method: 'listInvoices', request: customerId });
    if (this.down) throw new Error('payment provider unreachable');
    return [...(this.invoices.get(customerId) ?? [])].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, INVOICE_HISTORY_LIMIT);
  }
}
