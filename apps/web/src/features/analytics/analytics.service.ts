import {
  type Analytics as AnalyticsSink,
  PAGE_VIEW_EVENT_NAME,
  type TrackingEventInput,
  type TrackingProperties,
  type TrackingValue,
  shouldSendAnalytics,
  validateTrackingEvent,
} from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type Analytics, type PurchaseInput, TYPES } from '../../app/ports';
import { type BrowserEnvironment, type Logger, UI_TYPES } from '../../app/ui-ports';
import { AnalyticsSettings } from './analytics-settings';

/**
 * The web's Analytics port. Every event is validated (SPEC §5 tracking rules), nothing is sent
 * from localhost unless enabled (VITE_ANALYTICS_ON_LOCALHOST=true at build time, or the API's
 * ANALYTICS_ON_LOCALHOST=true at run time), and a failing service is only logged (SPEC §8).
 * Where events go is the sink's business (KilnAnalyticsSink: Kiln's store, and GA4 when configured).
 */
@injectable()
export class AnalyticsService implements Analytics {
  /** Whether events are sent from here; settled once the API's settings are known. */
  enabled: boolean;
  /** The API's settings, asked with the first event (not at construction: nothing is fetched before there is something to send). */
  private ready: Promise<void> | null = null;

  constructor(
    @inject(UI_TYPES.AnalyticsSink) private readonly sink: AnalyticsSink,
    @inject(UI_TYPES.Environment) private readonly env: BrowserEnvironment,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
    @inject(AnalyticsSettings) private readonly settings: Pick<AnalyticsSettings, 'load'>,
  ) {
    this.enabled = shouldSendAnalytics(env.hostname, { enabledOnLocalhost: env.analyticsOnLocalhost });
  }

  pageView(path: string): void {
    this.send({ kind: 'custom', name: PAGE_VIEW_EVENT_NAME, properties: { page_path: path } });
  }

  track(event: string, properties: Readonly<Record<string, unknown>> = {}): void {
    this.send({ kind: 'custom', name: event, properties: trackingProperties(properties) });
  }

  purchase(event: PurchaseInput): void {
    this.send({ kind: 'purchase', ...event });
  }

  private send(input: TrackingEventInput): void {
    // Events wait for the settings in the order they were made (one shared promise).
    this.ready ??= this.settings.load().then((s) => {
      this.enabled = shouldSendAnalytics(this.env.hostname, { enabledOnLocalhost: this.env.analyticsOnLocalhost || s.enabledOnLocalhost });
    });
    void this.ready.then(() => this.deliver(input));
  }

  private deliver(input: TrackingEventInput): void {
    if (!this.enabled) return;
    const event = validateTrackingEvent(input);
    if (!event.ok) {
      this.logger.warn(`Analytics event refused: ${event.error.message}`);
      return;
    }
    this.sink.track(event.value).catch((error: unknown) => this.logger.warn('Analytics event failed', error));
  }
}

/** Keeps the values an analytics service can carry: text, numbers, booleans and null. */
function trackingProperties(properties: Readonly<Record<string, unknown>>): TrackingProperties {
  const kept: Record<string, TrackingValue> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') kept[key] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) kept[key] = value;
  }
  return kept;
}

/**
 * One page view per navigation (SPEC §2). Components that watch the location report every
 * render's location key; a key already reported (StrictMode's double effects, a tracker in both
 * the root and a layout) is not counted again.
 */
@injectable()
export class PageViews {
  private lastKey: string | null = null;

  constructor(@inject(TYPES.Analytics) private readonly analytics: Analytics) {}

  record(locationKey: string, path: string): void {
    if (locationKey === this.lastKey) return;
    this.lastKey = locationKey;
    this.analytics.pageView(path);
  }
}
