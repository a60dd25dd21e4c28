import type { ContactAttributes } from './contact-attributes.js';
import type { MarketingEvent } from './marketing-audience.port.js';

/** One thing to tell the marketing audience, queued per contact (email) and delivered in order. */
export type MarketingDelivery =
  | { readonly kind: 'contact'; readonly email: string; readonly attributes: ContactAttributes }
  | { readonly kind: 'event'; readonly email: string; readonly event: MarketingEvent }
  | { readonly kind: 'remove'; readonly email: string };

export interface PendingDelivery {
  readonly id: string;
  readonly delivery: MarketingDelivery;
  /** Failed attempts so far. */
  readonly attempts: number;
}

/**
 * The marketing outbox: deliveries are written in Kiln's own database first (in the caller's
 * transaction, when one is open) and a worker hands them to the MarketingAudience later, so an
 * update made while the audience is down is delivered once it is back. Emails are compared
 * case-insensitively.
 */
export interface MarketingOutbox {
  enqueue(delivery: MarketingDelivery, at: Date): Promise<void>;
  /**
   * The oldest undelivered delivery of each contact, if its time has come (never a later one
   * while an earlier one of the same contact waits: order per contact is kept), oldest first,
   * at most `limit`. Each is leased until `leaseUntil`: another worker does not take it before.
   */
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<readonly PendingDelivery[]>;
  /** The delivery reached the audience: it is never handed out again. */
  markDelivered(id: string, at: Date): Promise<void>;
  /** The attempt failed: one more attempt counted, the next one not before `retryAt`. */
  markFailed(id: string, retryAt: Date, error: string): Promise<void>;
  /** Undelivered deliveries of a contact, oldest first (for the dev view and tests). */
  pending(email: string): Promise<readonly PendingDelivery[]>;
}
