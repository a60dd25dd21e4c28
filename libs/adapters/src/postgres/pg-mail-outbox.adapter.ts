import type { MailMessage, Mailer } from '@kiln/domain';
import { MailOutboxOrmEntity } from './mail-outbox.orm-entity.js';
import type { PgUnitOfWork } from './pg-unit-of-work.js';

/** A stored mail, as `list` returns it. */
export interface OutboxMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
  readonly created_at: Date;
}

/**
 * A Mailer for development and tests: instead of sending, it stores each mail in `mail_outbox`
 * (inside the caller's transaction, if one is open) and logs one line without the body, which
 * may hold a one-time code. `list(email)` reads a recipient's mail back, newest first.
 */
export class PgMailOutbox implements Mailer {
  constructor(
    private readonly tx: PgUnitOfWork,
    private readonly log: (line: string) => void = (line) => console.log(line),
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.tx.manager().insert(MailOutboxOrmEntity, {
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
    });
    this.log(`[mail-outbox] to=${message.to} subject=${JSON.stringify(message.subject)}`);
  }

  /** The recipient's mail (address compared case-insensitively), newest first. */
  async list(email: string): Promise<OutboxMail[]> {
    const rows = await this.tx
      .manager()
      .createQueryBuilder(MailOutboxOrmEntity, 'm')
      .where('lower(m.to) = lower(:email)', { email })
      .orderBy('m.createdAt', 'DESC')
      .addOrderBy('m.id', 'ASC')
      .getMany();
    return rows.map((r) => ({ to: r.to, subject: r.subject, text: r.text, html: r.html, created_at: r.createdAt }));
  }
}
