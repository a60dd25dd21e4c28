/**
 * The ids of payment events already applied (table `processed_payment_events`). Called inside
 * the UnitOfWork of the event's effect, so the record and the effect commit together: a duplicate
 * delivery — even a concurrent one, which waits on the first's row — finds the id and changes
 * nothing, and a failed effect rolls the record back so the provider's retry applies it.
 */
export interface ProcessedPaymentEvents {
  /** Records the id; false when it was already recorded. */
  record(eventId: string, type: string, at: Date): Promise<boolean>;
}

/**
 * The provider time of the last subscription state applied per user, so an older state arriving
 * late (webhooks are not ordered) is ignored. Called inside the same UnitOfWork.
 */
export interface SubscriptionStateVersions {
  /**
   * Serialises the payment effects of one user until the UnitOfWork ends (a row lock in
   * PostgreSQL): two events of one user — a subscription update and an invoice, say — each read
   * the profile only after the other committed, so neither overwrites the other's change.
   */
  lock(userId: string): Promise<void>;
  /**
   * Stores `at` for the user when it is not older than the stored time and answers true; answers
   * false (storing nothing) for an older state. Equal times both apply, in arrival order.
   */
  advance(userId: string, at: Date): Promise<boolean>;
}
