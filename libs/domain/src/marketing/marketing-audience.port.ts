import type { ContactAttributes } from './contact-attributes.js';

/** Who an event is about; at least one identifier is needed for the audience to match a contact. */
export interface MarketingIdentifiers {
  readonly email?: string;
  /** The Kiln user id (contact attribute EXT_ID). */
  readonly extId?: string;
}

export type MarketingEventValue = string | number | boolean | null;

/** SPEC §7 track-event: event_name, identifiers, event_properties. */
export interface MarketingEvent {
  readonly eventName: string;
  readonly identifiers: MarketingIdentifiers;
  readonly properties?: Readonly<Record<string, MarketingEventValue>>;
}

/**
 * The email-marketing audience (SPEC §7 Marketing). Failures are only logged by callers;
 * marketing must never block a person's action.
 */
export interface MarketingAudience {
  /** Records something a contact did. */
  trackEvent(event: MarketingEvent): Promise<void>;
  /** Creates the contact if missing, then sets the given attributes; others stay as they are. */
  updateContact(email: string, attributes: ContactAttributes): Promise<void>;
}
