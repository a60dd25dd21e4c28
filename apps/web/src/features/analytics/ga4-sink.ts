import { ANALYTICS_INIT_DELAY_MS, PAGE_VIEW_EVENT_NAME, type TrackingEvent } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type Timers, TYPES } from '../../app/ports';
import { type GtagHost, UI_TYPES } from '../../app/ui-ports';
import type { Ga4Settings } from './analytics-settings';

/**
 * Google Analytics 4 through the Google tag: `gtag('config', id)` once, then one
 * `gtag('event', name, params)` per event. gtag() only queues into window.dataLayer; gtag.js,
 * added to the page ANALYTICS_INIT_DELAY_MS (SPEC §9: 1 s) after the first event so it never
 * competes with the first paint, sends the queue and everything after it.
 */
@injectable()
export class Ga4AnalyticsSink {
  private started: string | null = null;

  constructor(
    @inject(UI_TYPES.Gtag) private readonly host: GtagHost,
    @inject(TYPES.Timers) private readonly timers: Timers,
  ) {}

  async track(event: TrackingEvent, settings: Ga4Settings): Promise<void> {
    this.start(settings);
    this.host.gtag('event', event.name, ga4Params(event));
  }

  private start({ measurementId, scriptOrigin }: Ga4Settings): void {
    if (this.started !== null) return;
    this.started = measurementId;
    this.host.gtag('js', new Date(this.timers.now()));
    // Kiln reports page views itself (one per navigation), so GA4's automatic one is off.
    this.host.gtag('config', measurementId, { send_page_view: false });
    void this.timers.sleep(ANALYTICS_INIT_DELAY_MS).then(() => this.host.loadScript(`${scriptOrigin}/gtag/js?id=${encodeURIComponent(measurementId)}`));
  }
}

/** GA4's parameters for an event: its recommended ones for page views and purchases. */
export function ga4Params(event: TrackingEvent): Record<string, unknown> {
  switch (event.kind) {
    case 'custom':
      if (event.name === PAGE_VIEW_EVENT_NAME) return { ...event.properties, page_path: event.properties['page_path'] };
      return { ...event.properties };
    case 'page':
      return {
        event_category: event.category,
        event_action: event.action,
        ...(event.label === undefined ? {} : { event_label: event.label }),
        ...(event.value === undefined ? {} : { value: event.value }),
      };
    case 'purchase':
      return {
        value: event.planPrice,
        currency: event.currency ?? 'USD',
        items: [{ item_id: event.planId, item_name: event.planName, price: event.planPrice, quantity: 1 }],
      };
  }
}
