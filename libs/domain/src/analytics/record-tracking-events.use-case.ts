import type { RateLimiter } from '../auth/rate-limiter.port.js';
import type { BucketRule } from '../auth/token-bucket.js';
import type { Clock } from '../shared/clock.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';
import type { AnalyticsEventStore } from './analytics-event-store.port.js';
import { type RecordedEvent, SERVER_ONLY_EVENT_NAMES, recordedEventOf } from './recorded-event.js';
import { type TrackingEventError, type TrackingEventInput, validateTrackingEvent } from './tracking-event.js';

export type ReservedEventName = DomainError<'ANALYTICS.RESERVED_EVENT_NAME'>;
export const reservedEventName = (name: string): ReservedEventName => ({
  code: 'ANALYTICS.RESERVED_EVENT_NAME',
  message: `The event name '${name}' is recorded by Kiln itself`,
});

export type AnalyticsRateLimited = DomainError<'ANALYTICS.RATE_LIMITED'> & { readonly retryAfterSeconds: number };

/**
 * Batches one client address may send: a burst for a busy session, then one a second. The web
 * sends one batch per second at most, so only a script flooding the table is slowed down.
 */
export const ANALYTICS_BATCH_RULE: BucketRule = { burst: 60, refillPerSecond: 1 };

/** The most events one batch may carry (the API's DTO refuses more). */
export const MAX_EVENTS_PER_BATCH = 25;

export interface RecordTrackingEventsInput {
  readonly events: readonly TrackingEventInput[];
  /** The signed-in sender, or null: anonymous page views are welcome. */
  readonly userId: string | null;
  /** The sender's address: the rate limit's key. */
  readonly clientAddress: string;
}

/**
 * Kiln's first-party analytics: a browser's batch of events, validated by SPEC §5 and kept with
 * the sender's id and the server's time. One invalid event refuses the whole batch (the web
 * validates before sending, so a refusal means a broken or hostile client).
 */
export class RecordTrackingEvents {
  constructor(
    private readonly store: AnalyticsEventStore,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async execute(input: RecordTrackingEventsInput): Promise<Result<{ readonly recorded: number }, TrackingEventError | ReservedEventName | AnalyticsRateLimited>> {
    const allowed = await this.limiter.take(`analytics:${input.clientAddress}`, ANALYTICS_BATCH_RULE);
    if (!allowed.allowed) {
      const retryAfterSeconds = Math.max(1, Math.ceil(allowed.retryAfterMs / 1000));
      return err({ code: 'ANALYTICS.RATE_LIMITED', message: `Too many analytics events. Please wait ${retryAfterSeconds} s.`, retryAfterSeconds });
    }
    const at = this.clock.now();
    const events: RecordedEvent[] = [];
    for (const raw of input.events) {
      const event = validateTrackingEvent(raw);
      if (!event.ok) return event;
      // Prompts are counted from the credits the server charged, not from what a browser says.
      if (SERVER_ONLY_EVENT_NAMES.includes(event.value.name)) return err(reservedEventName(event.value.name));
      events.push(recordedEventOf(event.value, input.userId, at));
    }
    if (events.length > 0) await this.store.record(events);
    return ok({ recorded: events.length });
  }
}
