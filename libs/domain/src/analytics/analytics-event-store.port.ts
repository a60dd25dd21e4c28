import type { RecordedEvent } from './recorded-event.js';

/** How many events of one name happened on one UTC day ('YYYY-MM-DD'). */
export interface DailyEventCount {
  readonly day: string;
  readonly name: string;
  readonly count: number;
}

/**
 * Kiln's first-party analytics: page views and events kept in Kiln's own database (the default
 * when no analytics vendor is configured), and read back per day for operators.
 */
export interface AnalyticsEventStore {
  /** Keeps every event, all or none. Rejects when the store cannot be reached. */
  record(events: readonly RecordedEvent[]): Promise<void>;
  /**
   * Per UTC day and name, the events of `names` that happened in [from, to). Days and names
   * without events are left out; order is not promised.
   */
  dailyCounts(names: readonly string[], window: { readonly from: Date; readonly to: Date }): Promise<readonly DailyEventCount[]>;
}
