import type { Clock } from '../shared/clock.port.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import { DELIVERY_LEASE_MS, retryAt } from './delivery-retry.js';
import type { FailedContactCache } from './failed-contact-cache.js';
import type { MarketingAudience } from './marketing-audience.port.js';
import type { MarketingDelivery, MarketingOutbox } from './marketing-outbox.port.js';

export const DEFAULT_DELIVERY_BATCH = 50;
/** Batches one tick may take: a contact's next delivery becomes due once its previous one is done. */
export const MAX_DELIVERY_ROUNDS = 10;

export interface DeliveryReport {
  readonly delivered: number;
  readonly failed: number;
  /** Left waiting because their contact failed recently (the failed-contact cache). */
  readonly deferred: number;
}

/**
 * One tick of the marketing worker: hands the due deliveries to the audience, round after round
 * while a contact's next delivery becomes due behind a delivered one. A failure is
 * counted and retried later with backoff (retryDelayMs), its contact goes into the failed-contact
 * cache, and nothing is lost: the delivery stays in the outbox until the audience accepts it.
 */
export class DeliverMarketingOutbox {
  constructor(
    private readonly outbox: MarketingOutbox,
    private readonly audience: MarketingAudience,
    private readonly clock: Clock,
    private readonly failedContacts: FailedContactCache,
    private readonly problems: ProblemLog,
  ) {}

  async execute(input: { readonly limit?: number } = {}): Promise<DeliveryReport> {
    const total = { delivered: 0, failed: 0, deferred: 0 };
    // Claimed deliveries that fail or wait stay leased, so a later round never takes them again.
    for (let round = 0; round < MAX_DELIVERY_ROUNDS; round += 1) {
      const report = await this.round(input.limit ?? DEFAULT_DELIVERY_BATCH);
      total.delivered += report.delivered;
      total.failed += report.failed;
      total.deferred += report.deferred;
      if (report.delivered === 0) break;
    }
    return total;
  }

  private async round(limit: number): Promise<DeliveryReport> {
    const now = this.clock.now();
    const due = await this.outbox.claimDue(now, limit, new Date(now.getTime() + DELIVERY_LEASE_MS));
    let delivered = 0;
    let failed = 0;
    let deferred = 0;
    for (const pending of due) {
      const { email } = pending.delivery;
      // Left leased: it is due again when the lease ends, and by then the cache may have cleared.
      if (this.failedContacts.has(email)) {
        deferred += 1;
        continue;
      }
      try {
        await this.deliver(pending.delivery);
      } catch (error) {
        failed += 1;
        this.failedContacts.add(email);
        const attempts = pending.attempts + 1;
        await this.outbox.markFailed(pending.id, retryAt(this.clock.now(), attempts), problemText(error));
        this.problems.warn(`Marketing ${pending.delivery.kind} for a contact failed (attempt ${attempts}), retried later: ${problemText(error)}`);
        continue;
      }
      await this.outbox.markDelivered(pending.id, this.clock.now());
      delivered += 1;
    }
    return { delivered, failed, deferred };
  }

  private deliver(delivery: MarketingDelivery): Promise<void> {
    switch (delivery.kind) {
      case 'contact':
        return this.audience.saveContact(delivery.email, delivery.attributes);
      case 'event':
        return this.audience.trackEvent(delivery.event);
      case 'remove':
        return this.audience.removeContact(delivery.email);
    }
  }
}
