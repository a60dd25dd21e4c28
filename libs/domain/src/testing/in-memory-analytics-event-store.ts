import type { AnalyticsEventStore, DailyEventCount } from '../analytics/analytics-event-store.port.js';
import type { RecordedEvent } from '../analytics/recorded-event.js';

/** AnalyticsEventStore in process memory (tests; the API's in-memory persistence). */
export class InMemoryAnalyticsEventStore implements AnalyticsEventStore {
  private readonly events: RecordedEvent[] = [];
  /** Set to make the next calls reject, as an unreachable database would. */
  failing = false;

  async record(events: readonly RecordedEvent[]): Promise<void> {
    if (this.failing) throw new Error('analytics store unavailable');
    this.events.push(...events.map((e) => ({ ...e, properties: { ...e.properties }, occurredAt: new Date(e.occurredAt.getTime()) })));
  }

  async dailyCounts(names: readonly string[], window: { readonly from: Date; readonly to: Date }): Promise<readonly DailyEventCount[]> {
    if (this.failing) throw new Error('analytics store unavailable');
    const counts = new Map<string, DailyEventCount>();
    for (const event of this.events) {
      const t = event.occurredAt.getTime();
      if (!names.includes(event.name) || t < window.from.getTime() || t >= window.to.getTime()) continue;
      const day = event.occurredAt.toISOString().slice(0, 10);
      const key = `${day}\u0000${event.name}`;
      counts.set(key, { day, name: event.name, count: (counts.get(key)?.count ?? 0) + 1 });
    }
    return [...counts.values()];
  }

  /** Everything recorded, oldest first (tests read what was kept). */
  all(): readonly RecordedEvent[] {
    return [...this.events];
  }
}
