import type { DomainError } from '../shared/domain-error.js';
import type { Result } from '../shared/result.js';
import type { PaymentEvent } from './payment-event.js';

export type InvalidWebhook = DomainError<'BILLING.INVALID_WEBHOOK'>;
export const invalidWebhook = (message: string): InvalidWebhook => ({ code: 'BILLING.INVALID_WEBHOOK', message });

/**
 * Checks a provider webhook's signature over the exact bytes received and translates it. Answers
 * null for a genuine event Kiln does not handle (acknowledged, nothing done).
 */
export interface PaymentWebhookVerifier {
  verify(rawBody: Uint8Array | string, signature: string | undefined): Result<PaymentEvent | null, InvalidWebhook>;
}
