import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment webhooks: the ids of provider events already applied (the record commits with the
 * event's effect, so a duplicate — even a concurrent one, which waits on the primary key — finds
 * it), and per user the provider time of the last subscription state applied (older states that
 * arrive late are ignored).
 */
export class PaymentsSchema1795478400000 implements MigrationInterface {
  name = 'PaymentsSchema1795478400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE processed_payment_events (
        event_id     text PRIMARY KEY,
        type         text NOT NULL,
        occurred_at  timestamptz NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE subscription_state_versions (
        user_id    text PRIMARY KEY CONSTRAINT subscription_state_versions_user_id_fkey REFERENCES profiles (id),
        applied_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE subscription_state_versions');
    await q.query('DROP TABLE processed_payment_events');
  }
}
