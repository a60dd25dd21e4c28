import { type AddressInfo, type Socket, createServer } from 'node:net';

/** A message the fake server accepted, with the parts a test looks at decoded. */
export interface FakeSmtpMail {
  /** MAIL FROM */
  readonly envelopeFrom: string;
  /** RCPT TO, in order */
  readonly recipients: readonly string[];
  /** Header fields, names lower-cased, encoded words decoded. */
  readonly headers: ReadonlyMap<string, string>;
  readonly subject: string;
  /** The text/plain part (line breaks as \n), if any. */
  readonly text: string | null;
  /** The text/html part (line breaks as \n), if any. */
  readonly html: string | null;
  /** The message as received (after dot-unstuffing), for anything else. */
  readonly raw: string;
}

export interface FakeSmtpServer {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>` */
  readonly url: string;
  /** Every accepted message, oldest first. */
  readonly mails: readonly FakeSmtpMail[];
  /** Messages with this RCPT TO address (case-insensitive), newest first. */
  inbox(address: string): FakeSmtpMail[];
  close(): Promise<void>;
}

export interface FakeSmtpOptions {
  /** Answer `550` to RCPT TO for these addresses, so a test can see a refusal. */
  readonly refuseRecipient?: (address: string) => boolean;
}

/**
 * A tiny SMTP server on 127.0.0.1 for tests: it speaks just enough RFC 5321 (EHLO/HELO, MAIL,
 * RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT; no TLS, no AUTH) to accept messages from
 * a real client, and decodes enough MIME (multipart, base64, quoted-printable, RFC 2047
 * headers) to read them back.
 */
export async function startFakeSmtpServer(options: FakeSmtpOptions = {}): Promise<FakeSmtpServer> {
  const mails: FakeSmtpMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let pending = '';
    let from = '';
    let recipients: string[] = [];
    let data: string[] | null = null;

    const onLine = (line: string) => {
      if (data) {
        if (line === '.') {
          const raw = data.join('\r\n');
          mails.push({ envelopeFrom: from, recipients, ...parseMessage(raw), raw });
          data = null;
          from = '';
          recipients = [];
          reply('250 2.0.0 Ok: queued');
        } else {
          data.push(line.startsWith('.') ? line.slice(1) : line);
        }
        return;
      }
      const verb = line.slice(0, 4).toUpperCase();
      const address = (/<([^>]*)>/.exec(line)?.[1] ?? '').trim();
      switch (verb) {
        case 'EHLO':
          reply('250-fake-smtp');
          reply('250-8BITMIME');
          reply('250 SMTPUTF8');
          break;
        case 'HELO':
          reply('250 fake-smtp');
          break;
        case 'MAIL':
          from = address;
          recipients = [];
          reply('250 2.1.0 Ok');
          break;
        case 'RCPT':
          if (options.refuseRecipient?.(address)) {
            reply('550 5.1.1 Recipient refused');
          } else {
            recipients.push(address);
            reply('250 2.1.5 Ok');
          }
          break;
        case 'DATA':
          if (recipients.length === 0) {
            reply('554 5.5.1 No valid recipients');
          } else {
            data = [];
            reply('354 End data with <CR><LF>.<CR><LF>');
          }
          break;
        case 'RSET':
          from = '';
          recipients = [];
          reply('250 2.0.0 Ok');
          break;
        case 'NOOP':
          reply('250 2.0.0 Ok');
          break;
        case 'QUIT':
          reply('221 2.0.0 Bye');
          socket.end();
          break;
        default:
          reply('502 5.5.2 Command not implemented');
      }
    };

    socket.on('data', (chunk: Buffer) => {
      // latin1 keeps every byte as one char; bodies are decoded to UTF-8 when parsed.
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        onLine(line);
      }
    });
    reply('220 fake-smtp ESMTP ready');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    inbox: (address) =>
      mails.filter((m) => m.recipients.some((r) => r.toLowerCase() === address.toLowerCase())).reverse(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---- just enough MIME -------------------------------------------------------------------------

interface Part {
  readonly headers: Map<string, string>;
  readonly body: string;
}

function splitPart(raw: string): Part {
  const split = raw.indexOf('\r\n\r\n');
  const head = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split + 4) : '';
  const headers = new Map<string, string>();
  for (const field of head.replace(/\r\n[ \t]/g, ' ').split('\r\n')) {
    const colon = field.indexOf(':');
    if (colon > 0) headers.set(field.slice(0, colon).trim().toLowerCase(), field.slice(colon + 1).trim());
  }
  return { headers, body };
}

function param(header: string | undefined, name: string): string | undefined {
  const match = new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(header ?? '');
  return match?.[1] ?? match?.[2];
}

function decodeQuotedPrintable(text: string): Buffer {
  const softBreaksRemoved = text.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksRemoved.length; i++) {
    const hex = softBreaksRemoved.slice(i + 1, i + 3);
    if (softBreaksRemoved[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(softBreaksRemoved.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(part.body)
        : Buffer.from(part.body, 'latin1');
  return bytes.toString('utf8').replace(/\r\n/g, '\n');
}

/** RFC 2047: `=?UTF-8?B?…?=` and `=?UTF-8?Q?…?=`; adjacent encoded words join without the space. */
function decodeWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const pieces: Buffer[] = [];
  let last = 0;
  let previousWasWord = false;
  for (const match of value.matchAll(word)) {
    const between = value.slice(last, match.index);
    if (!(previousWasWord && /^\s*$/.test(between))) pieces.push(Buffer.from(between, 'latin1'));
    const [, , kind, text = ''] = match;
    pieces.push(
      kind?.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text.replace(/_/g, ' ').replace(/=\r\n/g, '')),
    );
    last = match.index + match[0].length;
    previousWasWord = true;
  }
  pieces.push(Buffer.from(value.slice(last), 'latin1'));
  return Buffer.concat(pieces).toString('utf8');
}

function leaves(part: Part): Part[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = param(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`);
  // sections[0] is the preamble; the last one starts with '--' (the closing delimiter).
  return sections
    .slice(1)
    .filter((s) => !s.startsWith('--'))
    .map((s) => splitPart(s.replace(/^\r\n/, '').replace(/\r\n$/, '')))
    .flatMap(leaves);
}

function parseMessage(raw: string): Pick<FakeSmtpMail, 'headers' | 'subject' | 'text' | 'html'> {
  const top = splitPart(raw);
  const headers = new Map([...top.headers].map(([k, v]) => [k, decodeWords(v)]));
  const parts = leaves(top);
  const ofType = (type: string) => {
    const found = parts.find((p) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type));
    return found ? decodeBody(found) : null;
  };
  return { headers, subject: headers.get('subject') ?? '', text: ofType('text/plain'), html: ofType('text/html') };
}
