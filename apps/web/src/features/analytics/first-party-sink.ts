import { type Analytics as AnalyticsSink, MAX_EVENTS_PER_BATCH, type TrackingEvent } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import type { AnalyticsApi } from '../../api/analytics.api';
import { type Timers, TYPES } from '../../app/ports';
import { type Logger, type PageExit, UI_TYPES } from '../../app/ui-ports';

/** How long events wait to travel together (a navigation's page view and its events share a request). */
export const FIRST_PARTY_BATCH_MS = 1000;

/**
 * Kiln's own analytics: events are sent to POST /api/analytics/events in batches, at most one
 * batch a second (or at once when a batch is full). What still waits when the page is left
 * (a redirect to checkout right after 'Subscription ChangePlan') is sent then, with keepalive.
 * A failed batch is only logged (SPEC §8).
 */
@injectable()
export class FirstPartyAnalyticsSink implements AnalyticsSink {
  private readonly queue: TrackingEvent[] = [];
  private scheduled = false;
  private watchingExit = false;

  constructor(
    @inject(UI_TYPES.AnalyticsApi) private readonly api: AnalyticsApi,
    @inject(TYPES.Timers) private readonly timers: Timers,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(UI_TYPES.PageExit) private readonly pageExit: PageExit,
  ) {}

  async track(event: TrackingEvent): Promise<void> {
    if (!this.watchingExit) {
      this.watchingExit = true;
      this.pageExit.onLeave(() => void this.flush({ leaving: true }));
    }
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
  async flush(options: { readonly leaving?: boolean } = {}): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_EVENTS_PER_BATCH);
      try {
        await this.api.send(batch, options);
      } catch (error) {
        this.logger.warn('Analytics events could not be sent', error);
      }
    }
  }
}
