import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mailerContract } from '@kiln/domain/contracts';
import { SmtpMailer } from './smtp-mailer.adapter.js';
import { type FakeSmtpServer, startFakeSmtpServer } from './testing/fake-smtp-server.js';

// A real SMTP conversation over a socket: nodemailer against a tiny SMTP server on 127.0.0.1.
mailerContract('SMTP (nodemailer against a local SMTP server)', async () => {
  const server = await startFakeSmtpServer();
  const mailer = new SmtpMailer({ url: server.url, from: 'Kiln <no-reply@kiln.test>' });
  return {
    mailer,
    inbox: async (email) =>
      server.inbox(email).map((m) => ({ to: m.headers.get('to') ?? '', subject: m.subject, text: m.text ?? '', html: m.html })),
    close: async () => {
      mailer.close();
      await server.close();
    },
  };
});

describe('SmtpMailer', () => {
  let server: FakeSmtpServer;
  let mailer: SmtpMailer;

  beforeAll(async () => {
    server = await startFakeSmtpServer({ refuseRecipient: (address) => address.startsWith('refused') });
    mailer = new SmtpMailer({ url: server.url, from: 'Kiln <no-reply@kiln.test>' });
  });
  afterAll(async () => {
    mailer.close();
    await server.close();
  });

  it('sends from the configured sender to exactly the recipient', async () => {
    await mailer.send({ to: 'ana@example.com', subject: 'Hello', text: 'Hi Ana' });
    const [mail] = server.inbox('ana@example.com');
    expect(mail?.envelopeFrom).toBe('no-reply@kiln.test');
    expect(mail?.recipients).toEqual(['ana@example.com']);
    expect(mail?.headers.get('from')).toBe('Kiln <no-reply@kiln.test>');
  });

  it('rejects when the server refuses the recipient', async () => {
    await expect(mailer.send({ to: 'refused@example.com', subject: 'x', text: 'x' })).rejects.toThrow();
    expect(server.inbox('refused@example.com')).toEqual([]);
  });

  it('rejects when no SMTP server answers', async () => {
    const closed = await startFakeSmtpServer();
    await closed.close();
    const nowhere = new SmtpMailer({ url: closed.url, from: 'x@kiln.test' });
    await expect(nowhere.send({ to: 'a@example.com', subject: 'x', text: 'x' })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('is configured from SMTP_URL and SMTP_FROM', async () => {
    expect(() => SmtpMailer.fromEnv({})).toThrow('SMTP_URL is not set');
    const fromEnv = SmtpMailer.fromEnv({ SMTP_URL: server.url, SMTP_FROM: 'Team <team@kiln.test>' });
    await fromEnv.send({ to: 'env@example.com', subject: 'env', text: 'env' });
    fromEnv.close();
    expect(server.inbox('env@example.com')[0]?.headers.get('from')).toBe('Team <team@kiln.test>');
  });
});
