import type { AnalyticsEventStore, DailyEventCount, RecordedEvent } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql } from './sql.js';

/**
 * AnalyticsEventStore in PostgreSQL (`analytics_events`). A batch is one INSERT (all or none);
 * the daily counts are one GROUP BY over the UTC day, so the chart's read stays one query.
 */
export class PgAnalyticsEventStore implements AnalyticsEventStore {
  constructor(private readonly tx: PgUnitOfWork) {}

  async record(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const params: unknown[] = [];
    const rows = events.map((e) => {
      params.push(e.name, e.kind, JSON.stringify(e.properties), e.userId, e.occurredAt);
      const n = params.length;
      return `($${n - 4}, $${n - 3}, $${n - 2}::jsonb, $${n - 1}, $${n})`;
    });
    await sql(this.tx.manager(), `INSERT INTO analytics_events (name, kind, properties, user_id, occurred_at) VALUES ${rows.join(', ')}`, params);
  }

  async dailyCounts(names: readonly string[], window: { readonly from: Date; readonly to: Date }): Promise<readonly DailyEventCount[]> {
    if (names.length === 0) return [];
    const { rows } = await sql<{ day: string; name: string; count: string }>(
      this.tx.manager(),
      `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, name, count(*) AS count
         FROM analytics_events
        WHERE name = ANY($1::text[]) AND occurred_at >= $2 AND occurred_at < $3
        GROUP BY 1, 2`,
      [[...names], window.from, window.to],
    );
    // count(*) is a bigint, which pg hands over as text.
    return rows.map((r) => ({ day: r.day, name: r.name, count: Number.parseInt(r.count, 10) }));
  }
}
