import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type DataApiTarget, type DataApiTargets, DEFAULT_REALTIME_LIMITS, type FanoutMessage, type RealtimeFanout, type RealtimeLimits, admitSocket, parseTopic } from '@kiln/domain';
import { WebSocket, WebSocketServer } from 'ws';
import { type Caller, VerifiedTokens, authenticate } from '../databases/data-api-auth.js';
import { DataApiTargetCache } from '../databases/data-api-target-cache.js';
import { RealtimeChannels, type RealtimeSocket } from './realtime-channels.js';
import type { PgChangeFeed } from './pg-change-feed.js';
import { decodeClientFrame, reply } from './phoenix-frames.js';

export interface RealtimeServerOptions {
  readonly targets: DataApiTargets;
  readonly fanout: RealtimeFanout;
  readonly changes: PgChangeFeed;
  readonly limits?: RealtimeLimits;
  /** This API instance's name on the fanout (default: a random UUID). */
  readonly instanceId?: string;
  readonly log?: (error: unknown) => void;
}

/** Close codes, each with a reason realtime-js's `onclose` (and a person reading it) sees. */
export const CLOSE = {
  tooMany: 4029,
  idle: 4000,
  malformed: 1007,
  gone: 4004,
  shutdown: 1001,
} as const;

const PATH = '/realtime/v1/websocket';

/**
 * `/realtime/v1/websocket` on each project's data origin, wire-compatible with
 * `@supabase/realtime-js` 2.109.0 (Phoenix channels, vsn 2.0.0; docs/databases.md "Realtime").
 * Raw `ws` behind the data origin's host dispatch (docs/decisions.md): the upgrade is
 * authenticated with the apikey as `/rest/v1` is (anon key or a user's token of this project),
 * counted against the per-user and per-project caps, then served by RealtimeChannels. A socket that
 * sends nothing for `idleMs` is closed; a frame over `maxFrameBytes` closes it (1009).
 */
export class RealtimeServer {
  readonly prefix = '/realtime/v1';
  private readonly wss: WebSocketServer;
  private readonly targets: DataApiTargetCache;
  private readonly verified = new VerifiedTokens();
  private readonly limits: RealtimeLimits;
  private readonly sockets = new Map<string, Set<RealtimeSocket>>();
  private readonly channels: RealtimeChannels;
  private readonly sweep: NodeJS.Timeout;
  private stopFanout: Promise<() => Promise<void>> | null = null;
  private nextSocket = 0;
  private closing = false;

  constructor(private readonly options: RealtimeServerOptions) {
    this.limits = options.limits ?? DEFAULT_REALTIME_LIMITS;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.limits.maxFrameBytes, perMessageDeflate: false });
    this.targets = new DataApiTargetCache(options.targets, 1000);
    const instanceId = options.instanceId ?? randomUUID();
    this.channels = new RealtimeChannels({
      instanceId,
      fanout: options.fanout,
      changes: options.changes,
      limits: this.limits,
      verify: (socket, token) => authenticate(socket.apikey, `Bearer ${token}`, socket.target.jwtSecret, socket.ref, this.verified),
      log: options.log ?? ((e) => console.error('realtime:', e)),
    });
    this.sweep = setInterval(() => this.closeIdle(), Math.max(50, Math.min(5000, Math.floor(this.limits.idleMs / 4))));
    this.sweep.unref();
  }

  /**
   * HTTP on /realtime/v1: realtime-js's REST broadcast (`POST /realtime/v1/api/broadcast` with
   * `{ messages: [{ topic, event, payload }] }`, and `httpSend`'s
   * `POST /realtime/v1/api/broadcast/{topic}/events/{event}`), answered 202; anything else is 426
   * (the socket is at /realtime/v1/websocket).
   */
  handle(ref: string, req: IncomingMessage, res: ServerResponse): void {
    this.rest(ref, req, res).catch((e: unknown) => {
      this.options.log?.(e);
      if (!res.headersSent) answer(res, 500, { code: 'REALTIME.INTERNAL', message: 'Internal error of realtime' });
      else res.destroy();
    });
  }

  private async rest(ref: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://data.invalid');
    const broadcast = /^\/realtime\/v1\/api\/broadcast(?:\/([^/]+)\/events\/([^/]+))?\/?$/.exec(url.pathname);
    if (broadcast === null) return answer(res, 426, { code: 'REALTIME.UPGRADE_REQUIRED', message: 'Realtime is a websocket: connect to /realtime/v1/websocket?apikey=…&vsn=2.0.0' }, { Upgrade: 'websocket' });
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Methods': 'POST, OPTIONS', 'Access-Control-Allow-Headers': 'apikey, authorization, content-type, x-client-info', 'Access-Control-Max-Age': '600' });
      return void res.end();
    }
    if (req.method !== 'POST') return answer(res, 405, { code: 'REALTIME.METHOD_NOT_ALLOWED', message: 'Broadcast with POST' });
    let target: DataApiTarget | null;
    try {
      target = await this.targets.findByRef(ref);
    } catch {
      return answer(res, 503, { code: 'REALTIME.UNAVAILABLE', message: 'The project database is unavailable; try again shortly' }, { 'Retry-After': '5' });
    }
    if (target === null) return answer(res, 404, { code: 'PGRST125', message: 'No project database at this address' });
    const caller = await authenticate(header(req, 'apikey'), header(req, 'authorization'), target.jwtSecret, ref, this.verified);
    if (!caller.ok) return answer(res, 401, { code: caller.error.code, message: caller.error.message });
    const body = await readBody(req, this.limits.maxFrameBytes);
    // The rest of the body is not read: the connection cannot be reused.
    if (body === null) return answer(res, 413, { code: 'REALTIME.TOO_LARGE', message: `The body is larger than ${this.limits.maxFrameBytes} bytes` }, { Connection: 'close' });
    let messages: { topic: unknown; event: unknown; encoding: 'json' | 'binary'; data: Buffer; private?: unknown }[];
    if (broadcast[1] !== undefined) {
      const binary = (header(req, 'content-type') ?? '').startsWith('application/octet-stream');
      if (!binary && !isJson(body)) return answer(res, 400, { code: 'REALTIME.INVALID_BODY', message: 'The payload must be JSON (or application/octet-stream)' });
      messages = [{ topic: safeDecode(broadcast[1]), event: safeDecode(broadcast[2] ?? ''), encoding: binary ? 'binary' : 'json', data: body, private: url.searchParams.get('private') === 'true' }];
    } else {
      const parsed = isJson(body) ? (JSON.parse(body.toString('utf8')) as { messages?: unknown }) : null;
      if (parsed === null || typeof parsed !== 'object' || !Array.isArray(parsed.messages) || parsed.messages.length === 0 || parsed.messages.length > 100) {
        return answer(res, 400, { code: 'REALTIME.INVALID_BODY', message: 'The body must be { messages: [{ topic, event, payload }] } with 1 to 100 messages' });
      }
      messages = (parsed.messages as Record<string, unknown>[]).map((m) => ({ topic: m?.['topic'], event: m?.['event'], encoding: 'json' as const, data: Buffer.from(JSON.stringify(m?.['payload'] ?? {}), 'utf8'), private: m?.['private'] }));
    }
    for (const m of messages) {
      if (m.private === true) return answer(res, 400, { code: 'REALTIME.PRIVATE', message: 'Private channels (realtime.messages policies) are not available' });
      const topic = parseTopic(`realtime:${typeof m.topic === 'string' ? m.topic : ''}`);
      if (!topic.ok) return answer(res, 400, { code: topic.error.code, message: topic.error.message });
      if (typeof m.event !== 'string' || m.event === '' || Buffer.byteLength(m.event) > 255) return answer(res, 400, { code: 'REALTIME.INVALID_BODY', message: 'Each message needs an event of 1 to 255 bytes' });
    }
    for (const m of messages) {
      const sent = await this.channels.publishBroadcast(ref, `realtime:${m.topic as string}`, m.event as string, m.encoding, m.data, 'rest');
      if (!sent.ok) return answer(res, sent.tooLarge ? 413 : 503, { code: sent.tooLarge ? 'REALTIME.MESSAGE_TOO_LARGE' : 'REALTIME.UNAVAILABLE', message: sent.reason });
    }
    res.writeHead(202).end();
  }

  /** A websocket upgrade on project `ref`'s data origin. Refusals before the upgrade are HTTP answers. */
  upgrade(ref: string, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {});
    this.admit(ref, req, socket, head).catch((e: unknown) => {
      this.options.log?.(e);
      refuse(socket, 500, 'REALTIME.INTERNAL', 'Internal error of realtime');
    });
  }

  /** Open sockets of a project (tests, the bench). */
  count(ref: string): number {
    return this.sockets.get(ref)?.size ?? 0;
  }

  /** Drops every socket of a project with `code` (its database was deleted or detached: 4004). */
  async forget(ref: string, code: number = CLOSE.gone, reason = 'The project database is no longer available'): Promise<void> {
    this.targets.forget(ref);
    for (const s of [...(this.sockets.get(ref) ?? [])]) s.ws.close(code, reason);
    await this.options.changes.forget(ref);
  }

  /** Ends every socket (1001) and refuses new ones: the API is shutting down. */
  async closeSockets(): Promise<void> {
    this.closing = true;
    const open = [...this.sockets.values()].flatMap((set) => [...set]);
    for (const s of open) s.ws.close(CLOSE.shutdown, 'The server is shutting down');
    // The close frames are written; the sockets end now rather than after ws's 30 s close handshake.
    for (const s of open) s.ws.terminate();
  }

  async close(): Promise<void> {
    clearInterval(this.sweep);
    await this.closeSockets();
    this.wss.close();
    const stop = this.stopFanout;
    this.stopFanout = null;
    await stop?.then((f) => f()).catch(() => {});
    await this.options.changes.close();
  }

  private async admit(ref: string, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (this.closing) return refuse(socket, 503, 'REALTIME.UNAVAILABLE', 'The server is shutting down; try again shortly');
    const url = new URL(req.url ?? '/', 'http://data.invalid');
    if (url.pathname !== PATH && url.pathname !== `${PATH}/`) return refuse(socket, 404, 'REALTIME.NOT_FOUND', `Realtime answers on ${PATH}`);
    const vsn = url.searchParams.get('vsn') ?? '2.0.0';
    if (vsn !== '2.0.0') return refuse(socket, 400, 'REALTIME.UNSUPPORTED_VERSION', 'Only the Phoenix protocol vsn=2.0.0 is served');
    let target: DataApiTarget | null;
    try {
      target = await this.targets.findByRef(ref);
    } catch {
      return refuse(socket, 503, 'REALTIME.UNAVAILABLE', 'The project database is unavailable; try again shortly');
    }
    if (target === null) return refuse(socket, 404, 'PGRST125', 'No project database at this address');
    const apikey = url.searchParams.get('apikey') ?? header(req, 'apikey') ?? '';
    const caller = await authenticate(apikey, undefined, target.jwtSecret, ref, this.verified);
    if (!caller.ok) return refuse(socket, 401, caller.error.code, caller.error.message);
    await this.fanoutReady().catch(() => null);
    if (this.stopFanout === null) return refuse(socket, 503, 'REALTIME.UNAVAILABLE', 'Realtime is unavailable; try again shortly');
    const userKey = userKeyOf(caller.value, req);
    const mine = this.sockets.get(ref) ?? new Set<RealtimeSocket>();
    const admitted = admitSocket({ ofUser: [...mine].filter((s) => s.userKey === userKey).length, ofProject: mine.size }, this.limits);
    // Counted and added in this same turn (handleUpgrade calls back synchronously), so a burst of
    // upgrades cannot pass the caps between the check and the count.
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (!admitted.ok) {
        // A websocket close, so the client sees the reason (an HTTP refusal would be "unexpected response").
        ws.close(CLOSE.tooMany, admitted.error.message);
        return;
      }
      this.connected(ws, ref, target, apikey, caller.value, userKey);
    });
  }

  private connected(ws: WebSocket, ref: string, target: DataApiTarget, apikey: string, caller: Caller, userKey: string): void {
    const s: RealtimeSocket = { id: `s${(this.nextSocket += 1)}`, ws, ref, target, apikey, caller, userKey, lastSeen: Date.now(), channels: new Map() };
    const mine = this.sockets.get(ref) ?? new Set<RealtimeSocket>();
    mine.add(s);
    this.sockets.set(ref, mine);
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      s.lastSeen = Date.now();
      const frame = decodeClientFrame(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer), isBinary);
      if (frame.kind === 'malformed') {
        ws.close(CLOSE.malformed, frame.reason.slice(0, 120));
        return;
      }
      if (frame.kind === 'broadcast') return void this.channels.broadcast(s, frame.push);
      const m = frame.message;
      if (m.topic === 'phoenix' && m.event === 'heartbeat') return ws.send(reply(null, m.ref, 'phoenix', 'ok', {}));
      void this.channels.handle(s, m);
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      mine.delete(s);
      if (mine.size === 0 && this.sockets.get(ref) === mine) this.sockets.delete(ref);
      this.channels.socketClosed(s);
    });
  }

  /** The fanout subscription, made once on the first socket (rejects while the fanout is down). */
  private fanoutReady(): Promise<() => Promise<void>> {
    if (this.stopFanout !== null) return this.stopFanout;
    const subscribing = this.options.fanout.subscribe((m: FanoutMessage) => this.channels.fromFanout(m));
    this.stopFanout = subscribing;
    subscribing.catch(() => {
      if (this.stopFanout === subscribing) this.stopFanout = null;
    });
    return subscribing;
  }

  private closeIdle(): void {
    const before = Date.now() - this.limits.idleMs;
    for (const set of this.sockets.values()) {
      for (const s of set) if (s.lastSeen < before) s.ws.close(CLOSE.idle, `No message for ${Number((this.limits.idleMs / 1000).toFixed(1))} s: send heartbeats to stay connected`);
    }
  }
}

/** Who the caps count: an app user by `sub`; the anon key by the client's address. */
function userKeyOf(caller: Caller, req: IncomingMessage): string {
  const sub = caller.claims['sub'];
  return typeof sub === 'string' ? `user:${sub}` : `anon:${req.socket.remoteAddress ?? ''}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** An HTTP answer on the upgrade's socket, then closed. */
function refuse(socket: Duplex, status: number, code: string, message: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({ code, message });
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 500: 'Internal Server Error', 503: 'Service Unavailable' }[status] ?? 'Error';
  // Ended and then destroyed: the server's close must not wait for a client that keeps its side open.
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `${status === 503 ? 'Retry-After: 5\r\n' : ''}\r\n${body}`,
    () => socket.destroy(),
  );
}

function answer(res: ServerResponse, status: number, body: { code: string; message: string }, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** The body, or null past `max` bytes (the rest is not read). */
async function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
}
