import type { MailMessage, Mailer } from '@kiln/domain';
import nodemailer, { type Transporter } from 'nodemailer';

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS), as in SMTP_URL. */
  readonly url: string;
  /** The sender, e.g. `Kiln <no-reply@kiln.dev>`. */
  readonly from: string;
}

/** Sends mail through an SMTP relay (nodemailer). `send` resolves once the server accepted it. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = nodemailer.createTransport(options.url);
  }

  /** From SMTP_URL (required) and SMTP_FROM (default `Kiln <no-reply@localhost>`). */
  static fromEnv(env: Readonly<Record<string, string | undefined>>): SmtpMailer {
    const url = env['SMTP_URL']?.trim();
    if (!url) throw new Error('SMTP_URL is not set');
    return new SmtpMailer({ url, from: env['SMTP_FROM']?.trim() || 'Kiln <no-reply@localhost>' });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html !== undefined ? { html: message.html } : {}),
    });
  }

  /** Closes pooled connections (none unless the URL asks for `?pool=true`). */
  close(): void {
    this.transport.close();
  }
}
