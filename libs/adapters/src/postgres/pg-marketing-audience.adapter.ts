import { type ContactAttributes, type MarketingAudience, type MarketingEvent, newContactAttributes } from '@kiln/domain';
import type { PgUnitOfWork } from './pg-unit-of-work.js';
import { sql } from './sql.js';

/** A contact as the local audience keeps it (for /api/dev/marketing). */
export interface LocalMarketingContact {
  readonly email: string;
  readonly attributes: ContactAttributes;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An event as the local audience keeps it. */
export interface LocalMarketingEvent {
  readonly email: string | null;
  readonly eventName: string;
  readonly identifiers: Record<string, unknown>;
  readonly properties: Record<string, unknown>;
  readonly occurredAt: Date;
}

/**
 * The local default MarketingAudience (no BREVO_API_KEY): contacts and events kept in
 * PostgreSQL (`marketing_contacts`, `marketing_events`), so development and tests see exactly
 * what Brevo would have been told. Removing a contact also removes its events.
 */
export class PgMarketingAudience implements MarketingAudience {
  constructor(private readonly tx: PgUnitOfWork) {}

  async saveContact(email: string, attributes: ContactAttributes): Promise<void> {
    await sql(
      this.tx.manager(),
      `INSERT INTO marketing_contacts AS c (email_key, email, attributes, created_at, updated_at)
       VALUES (lower($1), $1, $2::jsonb || $3::jsonb, now(), now())
       ON CONFLICT (email_key) DO UPDATE SET attributes = c.attributes || $3::jsonb, updated_at = now()`,
      [email, JSON.stringify(newContactAttributes()), JSON.stringify(attributes)],
    );
  }

  async trackEvent(event: MarketingEvent): Promise<void> {
    await sql(
      this.tx.manager(),
      `INSERT INTO marketing_events (email_key, event_name, identifiers, properties, occurred_at, created_at)
       VALUES (lower($1), $2, $3::jsonb, $4::jsonb, $5, now())`,
      [event.identifiers.email_id ?? null, event.eventName, JSON.stringify(event.identifiers), JSON.stringify(event.properties), event.occurredAt],
    );
  }

  async removeContact(email: string): Promise<void> {
    await this.tx.atomically(async (manager) => {
      await sql(manager, `DELETE FROM marketing_events WHERE email_key = lower($1)`, [email]);
      await sql(manager, `DELETE FROM marketing_contacts WHERE email_key = lower($1)`, [email]);
    });
  }

  async contact(email: string): Promise<LocalMarketingContact | null> {
    return (await this.contacts(email))[0] ?? null;
  }

  /** Contacts, most recently updated first (at most 100), or the one with this email. */
  async contacts(email?: string): Promise<LocalMarketingContact[]> {
    const { rows } = await sql<{ email: string; attributes: ContactAttributes; created_at: Date; updated_at: Date }>(
      this.tx.manager(),
      `SELECT email, attributes, created_at, updated_at FROM marketing_contacts
        WHERE $1::text IS NULL OR email_key = lower($1) ORDER BY updated_at DESC, email_key LIMIT 100`,
      [email ?? null],
    );
    return rows.map((r) => ({ email: r.email, attributes: r.attributes, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  /** Events, oldest first (the latest 100), or those of this email. */
  async events(email?: string): Promise<LocalMarketingEvent[]> {
    const { rows } = await sql<{ email_key: string | null; event_name: string; identifiers: Record<string, unknown>; properties: Record<string, unknown>; occurred_at: Date }>(
      this.tx.manager(),
      `SELECT * FROM (SELECT id, email_key, event_name, identifiers, properties, occurred_at FROM marketing_events
        WHERE $1::text IS NULL OR email_key = lower($1) ORDER BY id DESC LIMIT 100) e ORDER BY id`,
      [email ?? null],
    );
    return rows.map((r) => ({ email: r.email_key, eventName: r.event_name, identifiers: r.identifiers, properties: r.properties, occurredAt: r.occurred_at }));
  }
}
