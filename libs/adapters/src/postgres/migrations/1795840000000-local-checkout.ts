import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The local test checkout's own state (PgLocalCheckoutStore), which a real provider would keep on
 * its side: checkout sessions (one per idempotency key) and the subscriptions paid through them,
 * so a restart of `npm start` keeps a test subscription that can still be cancelled or renewed.
 * Each row holds the adapter's object as JSON (dates tagged, read back as dates).
 */
export class LocalCheckout1795840000000 implements MigrationInterface {
  name = 'LocalCheckout1795840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE local_checkout_sessions (
        id              text        PRIMARY KEY,
        idempotency_key text        NOT NULL CONSTRAINT local_checkout_sessions_key_unique UNIQUE,
        data            jsonb       NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE local_checkout_subscriptions (
        id          text        PRIMARY KEY,
        user_id     text        NOT NULL,
        customer_id text        NOT NULL,
        data        jsonb       NOT NULL,
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX local_checkout_subscriptions_user_idx ON local_checkout_subscriptions (user_id)');
    await q.query('CREATE INDEX local_checkout_subscriptions_customer_idx ON local_checkout_subscriptions (customer_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE local_checkout_subscriptions');
    await q.query('DROP TABLE local_checkout_sessions');
  }
}
