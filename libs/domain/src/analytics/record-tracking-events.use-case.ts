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

export interface RecordTrackingEventsInput {
  readonly events: readonly TrackingEventInput[];
  /** The signed-in sender, or null: anonymous page views are welcome. */
  readonly userId: string | null;
}

/**
 * Kiln's first-party analytics: a browser's batch of events, validated by SPEC §5 and kept with
 * the sender's id and the server's time. One invalid event refuses the whole batch (the web
 * validates before sending, so a refusal means a broken or hostile client).
 */
export class RecordTrackingEvents {
  constructor(
    private readonly store: AnalyticsEventStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: RecordTrackingEventsInput): Promise<Result<{ readonly recorded: number }, TrackingEventError | ReservedEventName>> {
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
