import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Kiln's first-party analytics (PgAnalyticsEventStore): page views and SPEC §7 events from the
 * web, and the server's 'prompt' events, read back per UTC day for the operators' chart. The
 * index serves that read (names asked, a time window).
 */
export class AnalyticsEvents1796250000000 implements MigrationInterface {
  name = 'AnalyticsEvents1796250000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE analytics_events (
        id          bigserial   PRIMARY KEY,
        name        text        NOT NULL CONSTRAINT analytics_events_name_check CHECK (length(name) BETWEEN 1 AND 100),
        kind        text        NOT NULL CONSTRAINT analytics_events_kind_check CHECK (kind IN ('custom', 'page', 'purchase', 'server')),
        properties  jsonb       NOT NULL DEFAULT '{}'::jsonb,
        user_id     text,
        occurred_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX analytics_events_name_occurred_at_idx ON analytics_events (name, occurred_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE analytics_events');
  }
}
