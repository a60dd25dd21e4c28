import type { HandlePaymentEvent, PaymentEvent } from '@kiln/domain';

/**
 * Applies provider events in order through HandlePaymentEvent (each in its own transaction, as
 * separate webhook deliveries would be). A domain error is unexpected here: it throws, so the
 * caller answers 500 and — for a webhook — the provider retries.
 */
export async function applyPaymentEvents(handler: HandlePaymentEvent, events: readonly PaymentEvent[]): Promise<void> {
  for (const event of events) {
    const result = await handler.execute(event);
    if (!result.ok) throw new Error(`Payment event ${event.id} (${event.type}) failed: ${result.error.code} ${result.error.message}`);
  }
}
