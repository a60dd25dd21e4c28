import { BrevoClient, BrevoError } from '@getbrevo/brevo';
import { type ContactAttributes, type MarketingAudience, type MarketingEvent, newContactAttributes } from '@kiln/domain';

export interface BrevoOptions {
  /** BREVO_API_KEY (sent in the `api-key` header). */
  readonly apiKey: string;
  /** BREVO_BASE_URL: default Brevo's https://api.brevo.com/v3; tests give the fake server's. */
  readonly baseUrl?: string;
  /** How long one request may take (BREVO_TIMEOUT_MS). */
  readonly timeoutMs: number;
}

const isStatus = (error: unknown, status: number) => error instanceof BrevoError && error.statusCode === status;

/**
 * The MarketingAudience on Brevo, through its official SDK (@getbrevo/brevo). The SDK's own
 * retries are off: the MarketingOutbox retries, with backoff, for as long as it takes.
 *
 * saveContact: `PUT /v3/contacts/{email}` with the given attributes (an existing contact keeps
 * the others); a 404 means a new contact: `POST /v3/contacts` with the new-contact defaults
 * under them, `updateEnabled` so a contact created meanwhile is updated rather than refused.
 */
export class BrevoMarketingAudience implements MarketingAudience {
  private readonly client: BrevoClient;

  constructor(options: BrevoOptions) {
    this.client = new BrevoClient({
      apiKey: options.apiKey,
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      timeoutInSeconds: Math.max(1, Math.ceil(options.timeoutMs / 1000)),
      maxRetries: 0,
    });
  }

  async saveContact(email: string, attributes: ContactAttributes): Promise<void> {
    try {
      await this.client.contacts.updateContact({ identifier: email, attributes: { ...attributes } });
    } catch (error) {
      if (!isStatus(error, 404)) throw error;
      await this.client.contacts.createContact({ email, attributes: { ...newContactAttributes(), ...attributes }, updateEnabled: true });
    }
  }

  async trackEvent(event: MarketingEvent): Promise<void> {
    await this.client.event.createEvent({
      event_name: event.eventName,
      identifiers: { ...event.identifiers },
      event_properties: { ...event.properties },
      event_date: event.occurredAt.toISOString(),
    });
  }

  async removeContact(email: string): Promise<void> {
    try {
      await this.client.contacts.deleteContact({ identifier: email });
    } catch (error) {
      if (!isStatus(error, 404)) throw error; // already gone
    }
  }
}
