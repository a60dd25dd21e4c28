import type { ContactAttributes } from './contact-attributes.js';

/**
 * Who an event is about, in Brevo's event identifiers (SPEC §7 track-event `identifiers`); at
 * least one is needed for the audience to match a contact.
 */
export interface MarketingIdentifiers {
  readonly email_id?: string;
  /** The Kiln user id (contact attribute EXT_ID). */
  readonly ext_id?: string;
}

/** Event property values Brevo accepts (string, number, boolean; dates as ISO-8601 text). */
export type MarketingEventValue = string | number | boolean;

/** SPEC §7 track-event: event_name, identifiers, event_properties. */
export interface MarketingEvent {
  readonly eventName: string;
  readonly identifiers: MarketingIdentifiers;
  readonly properties: Readonly<Record<string, MarketingEventValue>>;
  /** When it happened (Brevo's event_date). */
  readonly occurredAt: Date;
}

/**
 * The email-marketing audience (SPEC §7 Marketing; Brevo, or the local PostgreSQL default).
 * Every method rejects when the audience cannot be reached or refuses the request; callers go
 * through the MarketingOutbox, which retries, so marketing never blocks a person's action.
 */
export interface MarketingAudience {
  /**
   * Creates the contact if missing — a new contact starts from newContactAttributes() (0 prompts
   * used, a balance of 5) under the given attributes — else sets only the given attributes.
   */
  saveContact(email: string, attributes: ContactAttributes): Promise<void>;
  /** Records something a contact did. */
  trackEvent(event: MarketingEvent): Promise<void>;
  /** Deletes the contact (account deletion); a contact that does not exist is already gone. */
  removeContact(email: string): Promise<void>;
}
