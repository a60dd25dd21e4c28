import { InMemoryMarketingAudience } from '@kiln/domain/testing';
import type { LocalMarketingView } from '../tokens.js';

/** The in-memory persistence's local marketing audience, readable like the PostgreSQL one. */
export class InMemoryLocalMarketing extends InMemoryMarketingAudience implements LocalMarketingView {
  async contacts(email?: string) {
    const at = new Date(0);
    return [...this.stored]
      .filter(([key]) => email === undefined || key === email.toLowerCase())
      .map(([key, attributes]) => ({ email: key, attributes, createdAt: at, updatedAt: at }));
  }

  async events(email?: string) {
    return this.tracked
      .filter((e) => email === undefined || e.identifiers.email_id?.toLowerCase() === email.toLowerCase())
      .map((e) => ({ email: e.identifiers.email_id?.toLowerCase() ?? null, eventName: e.eventName, identifiers: e.identifiers, properties: e.properties, occurredAt: e.occurredAt }));
  }
}
