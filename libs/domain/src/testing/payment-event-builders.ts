import { addMonthsClamped } from '../credits/allowance-cycle.js';
import type { SubscriptionSnapshot } from '../billing/payment-gateway.port.js';
import type { PaymentEvent } from '../billing/payment-event.js';

/** Builders of provider events for billing tests. */
export function snapshot(over: Partial<SubscriptionSnapshot> & { currentPeriodStart: Date }): SubscriptionSnapshot {
  return {
    id: 'sub_1',
    customerId: 'cus_1',
    planId: 'pro_monthly',
    status: 'active',
    interval: 'monthly',
    currentPeriodEnd: addMonthsClamped(over.currentPeriodStart, 1),
    cancelAtPeriodEnd: false,
    ...over,
  };
}

export function subscriptionEvent(
  id: string,
  type: 'subscription.created' | 'subscription.updated' | 'subscription.deleted',
  userId: string,
  at: Date,
  subscription: SubscriptionSnapshot,
): PaymentEvent {
  return { id, type, userId, occurredAt: at, subscription };
}

export function invoicePaid(id: string, userId: string, invoiceId: string, start: Date, subscriptionId = 'sub_1'): PaymentEvent {
  return { id, type: 'invoice.paid', userId, invoiceId, subscriptionId, occurredAt: start, period: { start, end: addMonthsClamped(start, 1) } };
}

export function addOnCheckout(id: string, userId: string, paymentId: string, at: Date): PaymentEvent {
  return { id, type: 'checkout.completed', mode: 'add_on', userId, customerId: 'cus_1', paymentId, packs: 1, occurredAt: at };
}
