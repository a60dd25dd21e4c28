import type { ProcessedPaymentEvents, SubscriptionStateVersions } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';

/**
 * `processed_payment_events` in the caller's transaction. A concurrent duplicate's INSERT waits
 * on the first one's uncommitted row, then finds it (ON CONFLICT DO NOTHING answers no row); if
 * the first rolls back, the duplicate's insert goes through and it applies the effect instead.
 */
export class PgProcessedPaymentEvents implements ProcessedPaymentEvents {
  constructor(private readonly tx: PgUnitOfWork) {}

  async record(eventId: string, type: string, at: Date): Promise<boolean> {
    const rows = (await this.tx
      .manager()
      .query(
        `INSERT INTO processed_payment_events (event_id, type, occurred_at) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
        [eventId, type, at],
      )) as unknown[];
    return rows.length === 1;
  }
}

/** `subscription_state_versions`: one conditional upsert, so two states of one user serialise on the row. */
export class PgSubscriptionStateVersions implements SubscriptionStateVersions {
  constructor(private readonly tx: PgUnitOfWork) {}

  async lock(userId: string): Promise<void> {
    // A no-op upsert: creates the row if needed and holds its lock until the transaction ends.
    await this.tx.manager().query(
      `INSERT INTO subscription_state_versions AS v (user_id, applied_at) VALUES ($1, '-infinity')
       ON CONFLICT (user_id) DO UPDATE SET applied_at = v.applied_at`,
      [userId],
    );
  }

  async advance(userId: string, at: Date): Promise<boolean> {
    const rows = (await this.tx.manager().query(
      `INSERT INTO subscription_state_versions AS v (user_id, applied_at) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET applied_at = EXCLUDED.applied_at WHERE v.applied_at <= EXCLUDED.applied_at
       RETURNING user_id`,
      [userId, at],
    )) as unknown[];
    return rows.length === 1;
  }
}
