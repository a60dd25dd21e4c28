import type { TrackingEvent, TrackingValue } from './tracking-event.js';

/** The server's own event: one prompt charged (recorded by the API, never accepted from a browser). */
export const PROMPT_EVENT_NAME = 'prompt';
/** Names only the server records; a client sending one is refused. */
export const SERVER_ONLY_EVENT_NAMES: readonly string[] = [PROMPT_EVENT_NAME];

/** One event as Kiln's first-party analytics keeps it (SPEC §7 events, validated by §5). */
export interface RecordedEvent {
  readonly name: string;
  readonly kind: TrackingEvent['kind'] | 'server';
  /** The event's fields besides its name: custom properties, page category/action, purchase plan. */
  readonly properties: Readonly<Record<string, TrackingValue>>;
  /** The signed-in person, or null for an anonymous visitor. */
  readonly userId: string | null;
  readonly occurredAt: Date;
}

/** A validated tracking event as stored: its fields flattened into properties. */
export function recordedEventOf(event: TrackingEvent, userId: string | null, occurredAt: Date): RecordedEvent {
  const { kind, name, ...rest } = event;
  const properties: Record<string, TrackingValue> = {};
  const fields = kind === 'custom' ? event.properties : (rest as Readonly<Record<string, TrackingValue | undefined>>);
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) properties[key] = value;
  return Object.freeze({ name, kind, properties: Object.freeze(properties), userId, occurredAt: new Date(occurredAt.getTime()) });
}
