import type { PaymentEvent } from '@kiln/domain';
import type { LocalCheckoutSession, LocalCheckoutStore, LocalSubscription } from '../payments/local-checkout-store.js';
import type { PgUnitOfWork } from './pg-unit-of-work.js';

/** JSON with dates kept as dates: `{ "$date": "<ISO>" }` on the way in, a Date on the way out. */
function toJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, encoded: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.toISOString() } : encoded;
  });
}

function fromJson<T>(data: unknown): T {
  return JSON.parse(JSON.stringify(data), (_key, value: unknown) => {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const date = (value as { $date?: unknown }).$date;
      if (typeof date === 'string' && Object.keys(value).length === 1) return new Date(date);
    }
    return value;
  }) as T;
}

/**
 * LocalCheckoutStore in PostgreSQL (`local_checkout_sessions`, `local_checkout_subscriptions`).
 * Opening is an INSERT … ON CONFLICT on the idempotency key; paying and abandoning are
 * conditional UPDATEs of a session that is neither paid nor canceled, and a payment stores its
 * subscription in the same transaction — so two requests racing to pay one session produce one
 * set of events.
 */
export class PgLocalCheckoutStore implements LocalCheckoutStore {
  constructor(private readonly tx: PgUnitOfWork) {}

  async openSession(idempotencyKey: string, session: LocalCheckoutSession): Promise<LocalCheckoutSession> {
    await this.tx
      .manager()
      .query('INSERT INTO local_checkout_sessions (id, idempotency_key, data) VALUES ($1, $2, $3::jsonb) ON CONFLICT (idempotency_key) DO NOTHING', [
        session.id,
        idempotencyKey,
        toJson(session),
      ]);
    const rows: { data: unknown }[] = await this.tx.manager().query('SELECT data FROM local_checkout_sessions WHERE idempotency_key = $1', [idempotencyKey]);
    return fromJson<LocalCheckoutSession>(rows[0]?.data);
  }

  async session(id: string): Promise<LocalCheckoutSession | null> {
    const rows: { data: unknown }[] = await this.tx.manager().query('SELECT data FROM local_checkout_sessions WHERE id = $1', [id]);
    return rows[0] ? fromJson<LocalCheckoutSession>(rows[0].data) : null;
  }

  async completeSession(id: string, events: readonly PaymentEvent[], subscription: LocalSubscription | null): Promise<LocalCheckoutSession | null> {
    return this.tx.atomically(async (manager) => {
      const result = (await manager.query(
        `UPDATE local_checkout_sessions SET data = jsonb_set(data, '{completed}', $2::jsonb)
         WHERE id = $1 AND data->'completed' = 'null'::jsonb AND data->'canceled' = 'false'::jsonb
         RETURNING data`,
        [id, toJson(events)],
      )) as unknown[];
      // TypeORM answers an UPDATE … RETURNING as [rows, affected count].
      const paidNow = (Array.isArray(result[0]) ? (result[0] as unknown[]) : result).length === 1;
      if (paidNow && subscription !== null) await this.insertOrUpdate(manager, subscription);
      const rows: { data: unknown }[] = await manager.query('SELECT data FROM local_checkout_sessions WHERE id = $1', [id]);
      return rows[0] ? fromJson<LocalCheckoutSession>(rows[0].data) : null;
    });
  }

  async cancelSession(id: string): Promise<LocalCheckoutSession | null> {
    await this.tx
      .manager()
      .query(`UPDATE local_checkout_sessions SET data = jsonb_set(data, '{canceled}', 'true'::jsonb) WHERE id = $1 AND data->'completed' = 'null'::jsonb`, [id]);
    return this.session(id);
  }

  async subscription(id: string): Promise<LocalSubscription | null> {
    const rows: { data: unknown }[] = await this.tx.manager().query('SELECT data FROM local_checkout_subscriptions WHERE id = $1', [id]);
    return rows[0] ? fromJson<LocalSubscription>(rows[0].data) : null;
  }

  async saveSubscription(subscription: LocalSubscription): Promise<void> {
    await this.insertOrUpdate(this.tx.manager(), subscription);
  }

  async subscriptionsOfUser(userId: string): Promise<LocalSubscription[]> {
    const rows: { data: unknown }[] = await this.tx.manager().query('SELECT data FROM local_checkout_subscriptions WHERE user_id = $1 ORDER BY id', [userId]);
    return rows.map((r) => fromJson<LocalSubscription>(r.data));
  }

  async subscriptionsOfCustomer(customerId: string): Promise<LocalSubscription[]> {
    const rows: { data: unknown }[] = await this.tx.manager().query('SELECT data FROM local_checkout_subscriptions WHERE customer_id = $1 ORDER BY id', [customerId]);
    return rows.map((r) => fromJson<LocalSubscription>(r.data));
  }

  async paidSessionsOfCustomer(customerId: string): Promise<LocalCheckoutSession[]> {
    // A test checkout keeps few sessions: no index on the JSON field is needed.
    const rows: { data: unknown }[] = await this.tx
      .manager()
      .query(`SELECT data FROM local_checkout_sessions WHERE data->>'customerId' = $1 AND data->'completed' <> 'null'::jsonb ORDER BY created_at, id`, [customerId]);
    return rows.map((r) => fromJson<LocalCheckoutSession>(r.data));
  }

  private async insertOrUpdate(manager: ReturnType<PgUnitOfWork['manager']>, subscription: LocalSubscription): Promise<void> {
    await manager.query(
      `INSERT INTO local_checkout_subscriptions (id, user_id, customer_id, data) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, customer_id = EXCLUDED.customer_id, updated_at = now()`,
      [subscription.id, subscription.userId, subscription.customerId, toJson(subscription)],
    );
  }
}
