import type { Clock } from '../shared/clock.port.js';
import type { MarketingOutbox } from './marketing-outbox.port.js';

/**
 * Queues the deletion of a person's marketing contact (account deletion, issue #17 item 4). It
 * goes through the outbox like every other delivery: after the contact's earlier updates, and
 * delivered even if the audience is down right now.
 */
export class RemoveMarketingContact {
  constructor(
    private readonly outbox: Pick<MarketingOutbox, 'enqueue'>,
    private readonly clock: Clock,
  ) {}

  async execute(email: string): Promise<void> {
    const trimmed = email.trim();
    if (trimmed === '') return;
    await this.outbox.enqueue({ kind: 'remove', email: trimmed }, this.clock.now());
  }
}
