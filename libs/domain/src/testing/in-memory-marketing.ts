import { type ContactAttributes, newContactAttributes } from '../marketing/contact-attributes.js';
import type { MarketingAudience, MarketingEvent } from '../marketing/marketing-audience.port.js';
import type { MarketingDelivery, MarketingOutbox, PendingDelivery } from '../marketing/marketing-outbox.port.js';

/** A MarketingAudience in memory; `down` makes every call reject as an unreachable vendor would. */
export class InMemoryMarketingAudience implements MarketingAudience {
  /** Contacts by lower-cased email. */
  readonly stored = new Map<string, ContactAttributes>();
  readonly tracked: MarketingEvent[] = [];
  down = false;

  async saveContact(email: string, attributes: ContactAttributes): Promise<void> {
    this.check();
    const key = email.toLowerCase();
    this.stored.set(key, { ...(this.stored.get(key) ?? newContactAttributes()), ...attributes });
  }

  async trackEvent(event: MarketingEvent): Promise<void> {
    this.check();
    this.tracked.push(event);
  }

  async removeContact(email: string): Promise<void> {
    this.check();
    this.stored.delete(email.toLowerCase());
  }

  contact(email: string): ContactAttributes | null {
    return this.stored.get(email.toLowerCase()) ?? null;
  }

  private check(): void {
    if (this.down) throw new Error('marketing audience unreachable');
  }
}

/** A deep copy, so a caller changing what it queued (or was handed) changes nothing stored. */
function copyDelivery(d: MarketingDelivery): MarketingDelivery {
  switch (d.kind) {
    case 'contact':
      return { kind: 'contact', email: d.email, attributes: { ...d.attributes } };
    case 'event':
      return {
        kind: 'event',
        email: d.email,
        event: { ...d.event, identifiers: { ...d.event.identifiers }, properties: { ...d.event.properties }, occurredAt: new Date(d.event.occurredAt.getTime()) },
      };
    case 'remove':
      return { kind: 'remove', email: d.email };
  }
}

interface Row {
  readonly seq: number;
  readonly delivery: MarketingDelivery;
  attempts: number;
  availableAt: number;
  deliveredAt: number | null;
  lastError: string | null;
}

/** A MarketingOutbox in memory, with the same ordering, due times and leases as the PostgreSQL one. */
export class InMemoryMarketingOutbox implements MarketingOutbox {
  private readonly rows: Row[] = [];
  private next = 1;

  async enqueue(delivery: MarketingDelivery, at: Date): Promise<void> {
    this.rows.push({ seq: this.next++, delivery: copyDelivery(delivery), attempts: 0, availableAt: at.getTime(), deliveredAt: null, lastError: null });
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<readonly PendingDelivery[]> {
    const heads = new Map<string, Row>();
    for (const row of this.rows) {
      const key = row.delivery.email.toLowerCase();
      if (row.deliveredAt === null && !heads.has(key)) heads.set(key, row);
    }
    const due = [...heads.values()].filter((r) => r.availableAt <= now.getTime()).sort((a, b) => a.seq - b.seq).slice(0, Math.max(0, limit));
    for (const row of due) row.availableAt = leaseUntil.getTime();
    return due.map((r) => this.view(r));
  }

  async markDelivered(id: string, at: Date): Promise<void> {
    const row = this.find(id);
    if (row) row.deliveredAt = at.getTime();
  }

  async markFailed(id: string, retryAt: Date, error: string): Promise<void> {
    const row = this.find(id);
    if (!row || row.deliveredAt !== null) return;
    row.attempts += 1;
    row.availableAt = retryAt.getTime();
    row.lastError = error;
  }

  async pending(email: string): Promise<readonly PendingDelivery[]> {
    return this.rows.filter((r) => r.deliveredAt === null && r.delivery.email.toLowerCase() === email.toLowerCase()).map((r) => this.view(r));
  }

  private find(id: string): Row | undefined {
    return this.rows.find((r) => String(r.seq) === id);
  }

  private view(row: Row): PendingDelivery {
    return { id: String(row.seq), delivery: copyDelivery(row.delivery), attempts: row.attempts };
  }
}
