import type { ContactAttributes, MarketingDelivery, MarketingEvent, MarketingOutbox, PendingDelivery } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql } from './sql.js';

interface OutboxRow {
  readonly seq: string;
  readonly kind: MarketingDelivery['kind'];
  readonly email: string;
  readonly payload: Record<string, unknown>;
  readonly attempts: number;
}

type StoredEvent = Omit<MarketingEvent, 'occurredAt'> & { readonly occurredAt: string };

function payloadOf(delivery: MarketingDelivery): Record<string, unknown> {
  switch (delivery.kind) {
    case 'contact':
      return { attributes: delivery.attributes };
    case 'event':
      return { event: { ...delivery.event, occurredAt: delivery.event.occurredAt.toISOString() } satisfies StoredEvent };
    case 'remove':
      return {};
  }
}

function deliveryOf(row: OutboxRow): MarketingDelivery {
  switch (row.kind) {
    case 'contact':
      return { kind: 'contact', email: row.email, attributes: row.payload['attributes'] as ContactAttributes };
    case 'event': {
      const stored = row.payload['event'] as StoredEvent;
      return { kind: 'event', email: row.email, event: { ...stored, occurredAt: new Date(stored.occurredAt) } };
    }
    case 'remove':
      return { kind: 'remove', email: row.email };
  }
}

const pending = (row: OutboxRow): PendingDelivery => ({ id: row.seq, delivery: deliveryOf(row), attempts: row.attempts });

/**
 * The marketing outbox in PostgreSQL (`marketing_outbox`). `enqueue` writes in the caller's
 * transaction when one is open (a plan change and its contact update commit together), inside
 * a savepoint so a failed insert never spoils that transaction. `claimDue` takes the head of
 * each contact's queue with FOR UPDATE SKIP LOCKED and leases it, so several API processes can
 * run the worker without delivering a row twice at once.
 */
export class PgMarketingOutbox implements MarketingOutbox {
  constructor(private readonly tx: PgUnitOfWork) {}

  async enqueue(delivery: MarketingDelivery, at: Date): Promise<void> {
    await this.tx.atomically((manager) =>
      sql(
        manager,
        `INSERT INTO marketing_outbox (email, email_key, kind, payload, available_at, created_at) VALUES ($1, lower($1), $2, $3::jsonb, $4, $4)`,
        [delivery.email, delivery.kind, JSON.stringify(payloadOf(delivery)), at],
      ),
    );
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<readonly PendingDelivery[]> {
    if (limit <= 0) return [];
    const { rows } = await sql<OutboxRow>(
      this.tx.manager(),
      `WITH heads AS (
         SELECT DISTINCT ON (email_key) seq FROM marketing_outbox WHERE delivered_at IS NULL ORDER BY email_key, seq
       ), due AS (
         SELECT o.seq FROM marketing_outbox o JOIN heads h ON h.seq = o.seq
          WHERE o.available_at <= $1 AND o.delivered_at IS NULL
          ORDER BY o.seq LIMIT $2
          FOR UPDATE OF o SKIP LOCKED
       )
       UPDATE marketing_outbox o SET available_at = $3 FROM due WHERE o.seq = due.seq
       RETURNING o.seq::text AS seq, o.kind, o.email, o.payload, o.attempts`,
      [now, limit, leaseUntil],
    );
    return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(pending);
  }

  async markDelivered(id: string, at: Date): Promise<void> {
    await sql(this.tx.manager(), `UPDATE marketing_outbox SET delivered_at = $2, last_error = NULL WHERE seq = $1 AND delivered_at IS NULL`, [id, at]);
  }

  async markFailed(id: string, retryAt: Date, error: string): Promise<void> {
    await sql(
      this.tx.manager(),
      `UPDATE marketing_outbox SET attempts = attempts + 1, available_at = $2, last_error = left($3, 1000) WHERE seq = $1 AND delivered_at IS NULL`,
      [id, retryAt, error],
    );
  }

  async pending(email: string): Promise<readonly PendingDelivery[]> {
    const { rows } = await sql<OutboxRow>(
      this.tx.manager(),
      `SELECT seq::text AS seq, kind, email, payload, attempts FROM marketing_outbox WHERE email_key = lower($1) AND delivered_at IS NULL ORDER BY seq`,
      [email],
    );
    return rows.map(pending);
  }
}
