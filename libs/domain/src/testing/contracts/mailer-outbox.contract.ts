import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MailMessage, Mailer } from '../../mail/mailer.port.js';

/** A delivered mail as the harness reads it back (line breaks normalised to \n). */
export interface DeliveredMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
}

export interface MailerHarness {
  readonly mailer: Mailer;
  /** What reached this address, newest first (an outbox table, a fake SMTP server's inbox, …). */
  inbox(email: string): Promise<readonly DeliveredMail[]>;
  close?(): Promise<void>;
}

/**
 * The Mailer contract: once `send` resolves, the message has reached its recipient intact —
 * subject, plain text and optional HTML, including non-ASCII text and lines SMTP treats
 * specially — and mail to one address never shows up in another's inbox.
 */
export function mailerContract(name: string, makeHarness: () => Promise<MailerHarness>): void {
  describe(`Mailer contract: ${name}`, () => {
    let h: MailerHarness;
    let n = 0;
    const address = () => `person-${++n}@example.com`;

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('delivers the subject and the plain text to the recipient once send resolves', async () => {
      const to = address();
      const message: MailMessage = { to, subject: 'Your Kiln code', text: 'Your code is 123456.\nIt expires in 10 minutes.' };
      await h.mailer.send(message);
      expect(await h.inbox(to)).toEqual([{ to, subject: message.subject, text: message.text, html: null }]);
    });

    it('keeps non-ASCII text and lines SMTP treats specially', async () => {
      const to = address();
      const text = ['Héllo Zoë — ✓ 李', '.', '.. a line starting with dots', 'From the start of a line', '', 'end'].join('\n');
      await h.mailer.send({ to, subject: 'Bienvenue ✓ — café', text });
      expect(await h.inbox(to)).toEqual([{ to, subject: 'Bienvenue ✓ — café', text, html: null }]);
    });

    it('delivers the HTML body alongside the text', async () => {
      const to = address();
      const html = '<p>Your code is <strong>654321</strong></p>';
      await h.mailer.send({ to, subject: 'Code', text: 'Your code is 654321', html });
      expect(await h.inbox(to)).toEqual([{ to, subject: 'Code', text: 'Your code is 654321', html }]);
    });

    it('keeps recipients apart and lists a recipient’s mail newest first', async () => {
      const ana = address();
      const ben = address();
      for (const subject of ['first', 'second', 'third']) await h.mailer.send({ to: ana, subject, text: subject });
      await h.mailer.send({ to: ben, subject: 'only', text: 'only' });
      expect((await h.inbox(ana)).map((m) => m.subject)).toEqual(['third', 'second', 'first']);
      expect((await h.inbox(ben)).map((m) => m.subject)).toEqual(['only']);
      expect(await h.inbox(address())).toEqual([]);
    });
  });
}
