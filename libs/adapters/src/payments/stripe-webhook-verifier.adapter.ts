import { type InvalidWebhook, type PaymentEvent, type PaymentWebhookVerifier, type Result, err, invalidWebhook, ok } from '@kiln/domain';
import type Stripe from 'stripe';
import { type StripePriceIds, toSnapshot } from './stripe-payment-gateway.adapter.js';

/** Stripe's default and ours: a signature older than 300 s is refused (replay protection). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies `Stripe-Signature` over the raw body with `stripe.webhooks.constructEvent` and
 * translates the events Kiln handles; others answer null.
 */
export class StripeWebhookVerifier implements PaymentWebhookVerifier {
  constructor(
    private readonly stripe: Stripe,
    private readonly secret: string,
    private readonly prices: StripePriceIds,
    private readonly tolerance = WEBHOOK_TOLERANCE_SECONDS,
  ) {}

  verify(rawBody: Uint8Array | string, signature: string | undefined): Result<PaymentEvent | null, InvalidWebhook> {
    if (!signature) return err(invalidWebhook('Missing Stripe-Signature header'));
    let event: Stripe.Event;
    try {
      const payload = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody);
      event = this.stripe.webhooks.constructEvent(payload, signature, this.secret, this.tolerance);
    } catch (e) {
      return err(invalidWebhook(e instanceof Error ? e.message : 'Invalid signature'));
    }
    return ok(this.translate(event));
  }

  private translate(event: Stripe.Event): PaymentEvent | null {
    const base = { id: event.id, occurredAt: new Date(event.created * 1000) };
    switch (event.type) {
      case 'checkout.session.completed': {
        const s = event.data.object;
        const userId = s.client_reference_id ?? s.metadata?.['user_id'] ?? null;
        if (!userId) return null;
        const customerId = typeof s.customer === 'string' ? s.customer : (s.customer?.id ?? null);
        if (s.mode === 'subscription') {
          const subscriptionId = typeof s.subscription === 'string' ? s.subscription : s.subscription?.id;
          if (!subscriptionId) return null;
          return { ...base, type: 'checkout.completed', mode: 'subscription', userId, customerId, subscriptionId };
        }
        if (s.mode === 'payment' && s.metadata?.['kind'] === 'add_on' && s.payment_status === 'paid') {
          const packs = Number.parseInt(s.metadata['packs'] ?? '1', 10);
          return { ...base, type: 'checkout.completed', mode: 'add_on', userId, customerId, paymentId: s.id, packs: Number.isSafeInteger(packs) && packs > 0 ? packs : 1 };
        }
        return null;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const type = event.type === 'customer.subscription.created' ? 'subscription.created' : event.type === 'customer.subscription.updated' ? 'subscription.updated' : 'subscription.deleted';
        return { ...base, type, userId: sub.metadata?.['user_id'] ?? null, subscription: toSnapshot(sub, this.prices) };
      }
      case 'invoice.paid': {
        const inv = event.data.object;
        const details = inv.parent?.subscription_details;
        if (!details || !inv.id) return null;
        const subscriptionId = typeof details.subscription === 'string' ? details.subscription : details.subscription.id;
        const line = inv.lines.data[0];
        const period = line ? line.period : { start: inv.period_start, end: inv.period_end };
        return {
          ...base,
          type: 'invoice.paid',
          invoiceId: inv.id,
          userId: details.metadata?.['user_id'] ?? null,
          subscriptionId,
          period: { start: new Date(period.start * 1000), end: new Date(period.end * 1000) },
        };
      }
      case 'invoice.payment_failed': {
        const inv = event.data.object;
        const details = inv.parent?.subscription_details;
        if (!inv.id) return null;
        const subscriptionId = details ? (typeof details.subscription === 'string' ? details.subscription : details.subscription.id) : null;
        return { ...base, type: 'invoice.payment_failed', invoiceId: inv.id, userId: details?.metadata?.['user_id'] ?? null, subscriptionId };
      }
      default:
        return null;
    }
  }
}
