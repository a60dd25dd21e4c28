import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONTACT_ATTRIBUTE_NAMES } from '@kiln/domain';

export interface FakeBrevoContact {
  readonly id: number;
  readonly email: string;
  attributes: Record<string, unknown>;
}

export interface FakeBrevoEvent {
  readonly event_name: string;
  readonly identifiers: Record<string, unknown>;
  readonly event_properties?: Record<string, unknown>;
  readonly event_date?: string;
}

export interface FakeBrevoRequest {
  readonly method: string;
  readonly path: string;
  readonly apiKey: string | undefined;
  readonly body: unknown;
}

/**
 * A local stand-in for Brevo's API v3 (https://api.brevo.com/v3), in its wire format: the
 * `api-key` header (401 `{code: 'unauthorized'}` without the right one), `POST /v3/contacts`
 * (201 `{id}`; an existing email is 400 `duplicate_parameter` unless `updateEnabled`, then 204),
 * `GET`/`PUT`/`DELETE /v3/contacts/{email}` (404 `document_not_found` for an unknown contact),
 * and `POST /v3/events` (204). Attributes must exist in the account (the SPEC §3 set here), as
 * in Brevo: others are 400 `invalid_parameter`. Emails are matched lower-cased, as Brevo does.
 * `down` answers every request 503; `stop()` closes the port altogether.
 */
export class FakeBrevoServer {
  readonly contacts = new Map<string, FakeBrevoContact>();
  readonly events: FakeBrevoEvent[] = [];
  readonly requests: FakeBrevoRequest[] = [];
  down = false;
  private nextId = 1;
  private server: Server | null = null;
  private port: number | null = null;

  constructor(readonly apiKey = 'xkeysib-test-key') {}

  /** The base URL the SDK is given: `http://127.0.0.1:<port>/v3`. */
  get baseUrl(): string {
    if (this.port === null) throw new Error('FakeBrevoServer is not started');
    return `http://127.0.0.1:${this.port}/v3`;
  }

  contact(email: string): FakeBrevoContact | null {
    return this.contacts.get(email.toLowerCase()) ?? null;
  }

  /** Starts (again, on the same port after `stop`, so a client keeps its base URL). */
  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.port ?? 0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    const send = (status: number, payload?: unknown) => {
      res.writeHead(status, payload === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' });
      res.end(payload === undefined ? undefined : JSON.stringify(payload));
    };
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      return send(400, { code: 'bad_request', message: 'Malformed JSON' });
    }
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const header = req.headers['api-key'];
    this.requests.push({ method: req.method ?? '', path, apiKey: typeof header === 'string' ? header : undefined, body });
    if (this.down) return send(503, { code: 'service_unavailable', message: 'Service temporarily unavailable' });
    if (header !== this.apiKey) return send(401, { code: 'unauthorized', message: 'Key not found' });

    const record = (body ?? {}) as Record<string, unknown>;
    if (req.method === 'POST' && path === '/v3/events') return this.createEvent(record, send);
    if (req.method === 'POST' && path === '/v3/contacts') return this.createContact(record, send);
    const match = /^\/v3\/contacts\/([^/]+)$/.exec(path);
    if (match) {
      const key = decodeURIComponent(match[1]!).toLowerCase();
      const existing = this.contacts.get(key);
      if (!existing) return send(404, { code: 'document_not_found', message: 'Contact does not exist' });
      if (req.method === 'GET') return send(200, { id: existing.id, email: existing.email, attributes: existing.attributes, listIds: [], emailBlacklisted: false, smsBlacklisted: false });
      if (req.method === 'DELETE') {
        this.contacts.delete(key);
        return send(204);
      }
      if (req.method === 'PUT') {
        const problem = this.attributeProblem(record['attributes']);
        if (problem) return send(400, { code: 'invalid_parameter', message: problem });
        existing.attributes = { ...existing.attributes, ...(record['attributes'] as Record<string, unknown> | undefined) };
        return send(204);
      }
    }
    send(404, { code: 'not_found', message: 'Invalid route' });
  }

  private createContact(record: Record<string, unknown>, send: (status: number, payload?: unknown) => void): void {
    const email = record['email'];
    if (typeof email !== 'string' || !email.includes('@')) return send(400, { code: 'invalid_parameter', message: 'Invalid email address' });
    const problem = this.attributeProblem(record['attributes']);
    if (problem) return send(400, { code: 'invalid_parameter', message: problem });
    const attributes = (record['attributes'] ?? {}) as Record<string, unknown>;
    const existing = this.contacts.get(email.toLowerCase());
    if (existing) {
      if (record['updateEnabled'] !== true) return send(400, { code: 'duplicate_parameter', message: 'Unable to create contact, email is already associated with another Contact' });
      existing.attributes = { ...existing.attributes, ...attributes };
      return send(204);
    }
    const contact = { id: this.nextId++, email: email.toLowerCase(), attributes: { ...attributes } };
    this.contacts.set(contact.email, contact);
    send(201, { id: contact.id });
  }

  private createEvent(record: Record<string, unknown>, send: (status: number, payload?: unknown) => void): void {
    const name = record['event_name'];
    const identifiers = record['identifiers'];
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(name)) return send(400, { code: 'invalid_parameter', message: 'event_name is invalid' });
    if (typeof identifiers !== 'object' || identifiers === null || Object.keys(identifiers).length === 0) {
      return send(400, { code: 'invalid_parameter', message: 'At least one identifier is required' });
    }
    this.events.push(record as unknown as FakeBrevoEvent);
    send(204);
  }

  private attributeProblem(attributes: unknown): string | null {
    if (attributes === undefined) return null;
    if (typeof attributes !== 'object' || attributes === null) return 'attributes must be an object';
    const unknown = Object.keys(attributes).find((name) => !(CONTACT_ATTRIBUTE_NAMES as readonly string[]).includes(name));
    return unknown === undefined ? null : `Attribute ${unknown} does not exist`;
  }
}
