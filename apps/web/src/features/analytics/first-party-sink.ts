import { type Analytics as AnalyticsSink, MAX_EVENTS_PER_BATCH, type TrackingEvent } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import type { AnalyticsApi } from '../../api/analytics.api';
import { type Timers, TYPES } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';

/** How long events wait to travel together (a navigation's page view and its events share a request). */
export const FIRST_PARTY_BATCH_MS = 1000;

/**
 * Kiln's own analytics: events are sent to POST /api/analytics/events in batches, at most one
 * batch a second (or at once when a batch is full). A failed batch is only logged (SPEC §8).
 */
@injectable()
export class FirstPartyAnalyticsSink implements AnalyticsSink {
  private readonly queue: TrackingEvent[] = [];
  private scheduled = false;

  constructor(
    @inject(UI_TYPES.AnalyticsApi) private readonly api: AnalyticsApi,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {}

  async track(event: TrackingEvent): Promise<void> {
    this.queue.push(event);
    if (this.queue.length >= MAX_EVENTS_PER_BATCH) {
      await this.flush();
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    void this.timers.sleep(FIRST_PARTY_BATCH_MS).then(() => {
      this.scheduled = false;
      return this.flush();
    });
  }

  /** Sends what is queued, in batches the API accepts. */
  async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_EVENTS_PER_BATCH);
      try {
        await this.api.send(batch);
      } catch (error) {
        this.logger.warn('Analytics events could not be sent', error);
      }
    }
  }
}
