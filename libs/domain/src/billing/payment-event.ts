import type { SubscriptionSnapshot } from './payment-gateway.port.js';

/**
 * A payment provider's webhook event in Kiln's words. Adapters (Stripe's verifier, the local
 * checkout) translate vendor payloads into these; `HandlePaymentEvent` applies them. `id` is the
 * provider's event id (the unit of exactly-once), `occurredAt` the provider's event time (used to
 * ignore subscription states older than one already applied).
 */
export type PaymentEvent =
  | CheckoutCompletedEvent
  | SubscriptionChangedEvent
  | InvoicePaidEvent
  | InvoicePaymentFailedEvent;

interface PaymentEventBase {
  readonly id: string;
  readonly occurredAt: Date;
}

/** A hosted checkout finished: a subscription was started, or an add-on pack was paid for. */
export type CheckoutCompletedEvent = PaymentEventBase & {
  readonly type: 'checkout.completed';
  /** The Kiln user (checkout's client_reference_id). */
  readonly userId: string;
  readonly customerId: string | null;
} & (
    | { readonly mode: 'subscription'; readonly subscriptionId: string }
    | { readonly mode: 'add_on'; readonly paymentId: string; readonly packs: number }
  );

/** customer.subscription.created / updated / deleted, with the subscription as it then stood. */
export interface SubscriptionChangedEvent extends PaymentEventBase {
  readonly type: 'subscription.created' | 'subscription.updated' | 'subscription.deleted';
  /** The Kiln user the subscription belongs to (set in its metadata at checkout); null if unknown. */
  readonly userId: string | null;
  readonly subscription: SubscriptionSnapshot;
}

/** An invoice of a subscription was paid: the billing period it pays for starts a new cycle. */
export interface InvoicePaidEvent extends PaymentEventBase {
  readonly type: 'invoice.paid';
  readonly invoiceId: string;
  readonly userId: string | null;
  readonly subscriptionId: string;
  readonly period: { readonly start: Date; readonly end: Date };
}

/** A renewal charge failed; the subscription's own status (past_due) follows as an update. */
export interface InvoicePaymentFailedEvent extends PaymentEventBase {
  readonly type: 'invoice.payment_failed';
  readonly invoiceId: string;
  readonly userId: string | null;
  readonly subscriptionId: string | null;
}
