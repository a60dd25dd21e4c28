import type { TrackingEvent } from './tracking-event.js';

/**
 * The product-analytics service (SPEC §7: purchase, page_view and custom events).
 * Takes only validated events (validateTrackingEvent). Failures are logged by callers, never
 * shown to people (SPEC §8: analytics failures are only logged).
 */
export interface Analytics {
  /** Sends one event. Rejects when the service cannot be reached. */
  track(event: TrackingEvent): Promise<void>;
}
