import type { Clock, MailMessage, Mailer } from '@kiln/domain';
import type { MailOutbox, OutboxMessage } from '../tokens.js';

/** A Mailer that keeps every message in memory and reads them back per recipient, newest first. */
export class InMemoryMailOutbox implements Mailer, MailOutbox {
  private readonly messages: OutboxMessage[] = [];

  constructor(private readonly clock: Clock) {}

  send(message: MailMessage): Promise<void> {
    this.messages.push(Object.freeze({ to: message.to, subject: message.subject, text: message.text, created_at: this.clock.now() }));
    return Promise.resolve();
  }

  list(email: string): Promise<OutboxMessage[]> {
    const wanted = email.trim().toLowerCase();
    // Appended in sending order: reversing gives newest first even when two share a timestamp.
    return Promise.resolve(this.messages.filter((m) => m.to.trim().toLowerCase() === wanted).reverse());
  }
}
