import type { MailMessage, Mailer } from '../../mail/mailer.port.js';

/** A Mailer that keeps what it was given; can be told to fail (undeliverable mail). */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failNext = false;

  send(message: MailMessage): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('mail relay refused the message'));
    }
    this.sent.push(Object.freeze({ ...message }));
    return Promise.resolve();
  }

  /** The mails to one address, oldest first. */
  to(email: string): MailMessage[] {
    const wanted = email.trim().toLowerCase();
    return this.sent.filter((m) => m.to.toLowerCase() === wanted);
  }

  /** The six-digit code of the newest mail to `email`, or null. */
  lastCode(email: string): string | null {
    const mails = this.to(email);
    const last = mails[mails.length - 1];
    return last ? (/\b(\d{6})\b/.exec(last.text)?.[1] ?? null) : null;
  }

  clear(): void {
    this.sent.length = 0;
  }
}
