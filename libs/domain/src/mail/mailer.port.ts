export interface MailMessage {
  /** One recipient address. */
  readonly to: string;
  readonly subject: string;
  /** The plain-text body; always sent so every mail client can read the message. */
  readonly text: string;
  /** An optional HTML body shown by clients that can. */
  readonly html?: string;
}

/** Sends email to people (one-time codes, account notices). */
export interface Mailer {
  /** Resolves once the provider has accepted the message; rejects if it refuses. */
  send(message: MailMessage): Promise<void>;
}
