import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marketing (issue #17 item 1): the outbox every contact update, event and removal goes through
 * (PgMarketingOutbox: delivered in order per contact, retried with backoff), and the local
 * default audience's contacts and events (PgMarketingAudience, shown by /api/dev/marketing).
 * Contacts are keyed by the lower-cased email, as Brevo matches them.
 */
export class Marketing1796200000000 implements MigrationInterface {
  name = 'Marketing1796200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE marketing_outbox (
        seq          bigserial   NOT NULL CONSTRAINT marketing_outbox_pkey PRIMARY KEY,
        email        text        NOT NULL,
        email_key    text        NOT NULL,
        kind         text        NOT NULL CONSTRAINT marketing_outbox_kind_check CHECK (kind IN ('contact', 'event', 'remove')),
        payload      jsonb       NOT NULL,
        attempts     integer     NOT NULL DEFAULT 0 CONSTRAINT marketing_outbox_attempts_check CHECK (attempts >= 0),
        available_at timestamptz NOT NULL,
        delivered_at timestamptz,
        last_error   text,
        created_at   timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX marketing_outbox_undelivered_idx ON marketing_outbox (email_key, seq) WHERE delivered_at IS NULL`);
    await q.query(`
      CREATE TABLE marketing_contacts (
        email_key  text        NOT NULL CONSTRAINT marketing_contacts_pkey PRIMARY KEY,
        email      text        NOT NULL,
        attributes jsonb       NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE marketing_events (
        id          bigserial   NOT NULL CONSTRAINT marketing_events_pkey PRIMARY KEY,
        email_key   text,
        event_name  text        NOT NULL,
        identifiers jsonb       NOT NULL,
        properties  jsonb       NOT NULL,
        occurred_at timestamptz NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX marketing_events_email_key_idx ON marketing_events (email_key, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE marketing_events');
    await q.query('DROP TABLE marketing_contacts');
    await q.query('DROP TABLE marketing_outbox');
  }
}
