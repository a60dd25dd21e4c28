import {
  type DataApiQuota,
  type DataApiTarget,
  type DataApiTargets,
  type DatabaseQuotaExceeded,
  type RestError,
  contentRange,
  parsePrefer,
  parseRange,
  parseRestQuery,
} from '@kiln/domain';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { VerifiedTokens, authenticate } from './data-api-auth.js';
import { DataApiTargetCache, TARGET_CACHE_MS } from './data-api-target-cache.js';
import type { DataRequest, PgDataApi } from './pg-data-api.js';
import { isDatabaseUnavailable } from '../postgres/database-unavailable.js';
import { RETRY_AFTER_SECONDS, unavailable } from './pg-rest-errors.js';

/**
 * The URL stays under 16 KiB (414 past it, in PostgREST's shape); the API's server accepts 64 KiB
 * of request line and headers (serving/max-header-size.ts), so a URL the data API accepts always
 * reaches it, and headers past that get a readable 431 (serving/answer-client-errors.ts).
 */
export const DATA_API_LIMITS = { maxBodyBytes: 1024 * 1024, maxUrlLength: 16 * 1024 } as const;

const ALLOWED_HEADERS = 'apikey, authorization, x-client-info, content-type, prefer, range, range-unit, accept-profile, content-profile, x-supabase-api-version, accept';
const EXPOSED_HEADERS = 'Content-Range, Range, Location, Preference-Applied, X-Supabase-Api-Version, Retry-After';

/** Another service of the data origin (e.g. `/auth/v1`), answering under its own path prefix. */
export interface DataOriginService {
  readonly prefix: string;
  handle(ref: string, req: IncomingMessage, res: ServerResponse): void;
  /** A websocket upgrade under its prefix (realtime); without it such an upgrade is refused. */
  upgrade?(ref: string, req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Drops what it keeps of a project (its sockets), like DataApiServer.forget. */
  forget?(ref: string): Promise<void> | void;
  /** Ends its websockets and refuses new ones (the API is shutting down). */
  closeSockets?(): Promise<void>;
}

/**
 * The data origin of every project (`DATA_URL_TEMPLATE`, e.g. `http://{ref}.data.localhost:3000`):
 * `/rest/v1/*` speaks what supabase-js's PostgREST client sends; other prefixes go to the services
 * given (app sign-in adds `/auth/v1`); anything else is 404. CORS is open to any origin: the app
 * calls it from its preview or published origin, with a key, never with cookies.
 */
export class DataApiServer {
  private readonly hostPattern: RegExp;
  private readonly targets: DataApiTargetCache;
  private readonly verified = new VerifiedTokens();

  constructor(
    dataUrlTemplate: string,
    targets: DataApiTargets,
    private readonly api: PgDataApi,
    private readonly services: readonly DataOriginService[] = [],
    private readonly log: (error: unknown) => void = (e) => console.error('data API:', e),
    /** The size quota; without it writes are not measured (tests of the grammar). */
    private readonly quota?: DataApiQuota,
    targetCacheMs = TARGET_CACHE_MS,
  ) {
    this.targets = new DataApiTargetCache(targets, targetCacheMs);
    const host = new URL(dataUrlTemplate.replace('{ref}', 'kilnref').replace('{port}', '1')).hostname;
    const escaped = host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('kilnref', '([a-z0-9]{20})');
    this.hostPattern = new RegExp(`^${escaped}(?::\\d+)?$`, 'i');
  }

  /** The project ref of a request's Host, or null when it is not a data origin. */
  refOf(req: IncomingMessage): string | null {
    return this.hostPattern.exec(req.headers.host ?? '')?.[1]?.toLowerCase() ?? null;
  }

  matches(req: IncomingMessage): boolean {
    return this.refOf(req) !== null;
  }

  /**
   * Forgets what is kept of a project database (its lookup, pool and schema): call it when it is
   * detached, deleted or reprovisioned, so the next request sees the change at once.
   */
  async forget(ref: string): Promise<void> {
    this.targets.forget(ref);
    await Promise.all([this.api.forget(ref), ...this.services.map(async (s) => s.forget?.(ref))]);
  }

  /** Ends the services' websockets (realtime) before the HTTP server closes: it waits for them. */
  async closeSockets(): Promise<void> {
    await Promise.all(this.services.map((s) => s.closeSockets?.()));
  }

  /** A websocket upgrade on a data origin: to the service of its path that takes upgrades (realtime), else refused. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const ref = this.refOf(req) as string;
    const url = req.url ?? '/';
    const service = this.services.find((s) => s.upgrade !== undefined && (url === s.prefix || url.startsWith(`${s.prefix}/`) || url.startsWith(`${s.prefix}?`)));
    if (service?.upgrade === undefined) {
      socket.on('error', () => {});
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
      return;
    }
    service.upgrade(ref, req, socket, head);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.serve(req, res).catch((e: unknown) => {
      // A bug, not an outage: 500, and the cause in the log (never in the answer).
      this.log(e);
      if (!res.headersSent) send(res, error(500, 'PGRST000', 'Internal error of the data API'));
      else res.destroy();
    });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    res.setHeader('Vary', 'Origin');
    const ref = this.refOf(req) as string;
    const url = req.url ?? '/';
    // A service answers its own preflight: app sign-in allows PUT (/auth/v1/user), /rest/v1 does not.
    const service = this.services.find((s) => url === s.prefix || url.startsWith(`${s.prefix}/`) || url.startsWith(`${s.prefix}?`));
    if (service !== undefined) return service.handle(ref, req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'Access-Control-Allow-Methods': 'GET, HEAD, POST, PATCH, DELETE, OPTIONS', 'Access-Control-Allow-Headers': ALLOWED_HEADERS, 'Access-Control-Max-Age': '600' });
      res.end();
      return;
    }
    if (!url.startsWith('/rest/v1/')) return send(res, error(404, 'PGRST125', 'Invalid path specified in request URL'));
    if (url.length > DATA_API_LIMITS.maxUrlLength) return send(res, error(414, 'PGRST100', 'The request URL is too long'));
    const profile = req.headers['accept-profile'] ?? req.headers['content-profile'];
    if (profile !== undefined && profile !== 'public') return send(res, error(406, 'PGRST106', 'The schema must be one of the following: public'));

    let target;
    try {
      target = await this.targets.findByRef(ref);
    } catch {
      return send(res, unavailable());
    }
    if (target === null) {
      // Detached or deleted elsewhere (another process, a deleted project): its pool goes too.
      if (this.api.knows(ref)) void this.api.forget(ref);
      return send(res, error(404, 'PGRST125', 'No project database at this address'));
    }
    const caller = await authenticate(header(req, 'apikey'), header(req, 'authorization'), target.jwtSecret, ref, this.verified);
    if (!caller.ok) return send(res, caller.error);

    const body = await readBody(req);
    if (!body.ok) {
      // The rest of an oversized body is not read: the connection cannot be reused.
      if (body.error.status === 413) res.setHeader('Connection', 'close');
      return send(res, body.error);
    }
    const request = buildRequest(req, url, body.value);
    if (!request.ok) return send(res, request.error);
    // Refused before anything runs: a change is never made for an answer that cannot be sent.
    const accept = header(req, 'accept');
    if (!acceptable(accept)) return send(res, error(406, 'PGRST107', `None of these media types are available: ${(accept ?? '').slice(0, 200)}`, 'The data API answers application/json and application/vnd.pgrst.object+json'));
    const prefer = parsePrefer(header(req, 'prefer'));
    const quota = await this.quotaOf(target, request.value.kind);
    if (quota.refuse !== null) return send(res, quota.refuse);
    const overQuota = quota.readOnly;
    const answer = await this.api.run(target, caller.value.role, caller.value.claims, request.value, prefer, { readOnly: overQuota !== null });
    // A write in the read-only rpc (25006), or its attempt to turn the transaction read-write (25001).
    if (!answer.ok) return send(res, overQuota !== null && ['25006', '25001'].includes(answer.error.code) ? quotaExceeded(overQuota) : answer.error);
    const { rows, total, offset, list } = answer.value;
    let text = answer.value.body;
    const kind = request.value.kind;
    // `.single()`: one object instead of a list of one; a function's own value is left as it is.
    if ((accept ?? '').includes('application/vnd.pgrst.object+json') && text !== null && list) {
      if (rows !== 1) return send(res, error(406, 'PGRST116', 'JSON object requested, multiple (or no) rows returned', `The result contains ${rows} rows`));
      text = JSON.stringify((JSON.parse(text) as unknown[])[0]);
    }
    res.setHeader('Content-Range', contentRange(offset, rows, total));
    let status = 200;
    if (kind === 'insert') status = 201;
    else if (kind === 'read' && total !== null && rows < total - offset) status = 206;
    if (req.method === 'HEAD' || text === null) {
      // PostgREST: an answer without a body is 204, except HEAD and a created row.
      res.writeHead(status === 200 && req.method !== 'HEAD' ? 204 : status, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end();
      return;
    }
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(text);
  }

  /**
   * Past the size quota: no insert, update or upsert (`refuse`: 402); an rpc runs read-only
   * (`readOnly`: a function that only reads still answers). Reads and deletes never ask, so a
   * project can always get back under its quota.
   */
  private async quotaOf(target: DataApiTarget, kind: DataRequest['kind']): Promise<{ refuse: RestError | null; readOnly: DatabaseQuotaExceeded | null }> {
    if (this.quota === undefined || (kind !== 'insert' && kind !== 'update' && kind !== 'rpc')) return { refuse: null, readOnly: null };
    let allowed;
    try {
      allowed = await this.quota.checkWrite(target);
    } catch (e) {
      // Kiln's own database (the owner's plan) unreachable is an outage; anything else a bug (500).
      if (isDatabaseUnavailable(e)) return { refuse: unavailable(), readOnly: null };
      throw e;
    }
    if (allowed.ok) return { refuse: null, readOnly: null };
    if (allowed.error.code === 'DATABASES.SERVER_UNAVAILABLE') return { refuse: unavailable(), readOnly: null };
    return kind === 'rpc' ? { refuse: null, readOnly: allowed.error } : { refuse: quotaExceeded(allowed.error), readOnly: null };
  }
}

/**
 * What `Accept` may ask for: JSON (a list, or `.single()`'s object) or anything. CSV, GeoJSON and
 * plans (`.csv()`, `.geojson()`, `.explain()`) are not produced: 406 rather than JSON in their place.
 */
const MEDIA_TYPES = ['*/*', 'application/*', 'application/json', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.object'];
function acceptable(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((part) => MEDIA_TYPES.includes((part.split(';')[0] ?? '').trim().toLowerCase()));
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const error = (status: number, code: string, message: string, details: string | null = null): RestError => ({ status, code, message, details, hint: null });

/** 402 in PostgREST's shape, with the API's code and message (docs/databases.md "Limits"). */
function quotaExceeded(e: DatabaseQuotaExceeded): RestError {
  return {
    status: 402,
    code: e.code,
    message: e.message,
    details: `size_bytes=${e.sizeBytes} quota_bytes=${e.quotaBytes}`,
    hint: 'Reads and deletes are still allowed: delete rows to get back under the quota.',
  };
}

export function send(res: ServerResponse, e: RestError): void {
  // Busy or unreachable: the client may try again (supabase-js's callers see the header).
  if (e.status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.writeHead(e.status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ code: e.code, message: e.message, details: e.details, hint: e.hint }));
}

async function readBody(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; error: RestError }> {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE') {
    req.resume();
    return { ok: true, value: undefined };
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > DATA_API_LIMITS.maxBodyBytes) {
    return { ok: false, error: error(413, 'PGRST413', `The body is larger than ${DATA_API_LIMITS.maxBodyBytes} bytes`) };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DATA_API_LIMITS.maxBodyBytes) {
      return { ok: false, error: error(413, 'PGRST413', `The body is larger than ${DATA_API_LIMITS.maxBodyBytes} bytes`) };
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: error(400, 'PGRST102', 'Empty or invalid json') };
  }
}

function buildRequest(req: IncomingMessage, url: string, body: unknown): { ok: true; value: DataRequest } | { ok: false; error: RestError } {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const pairs = [...new URLSearchParams(q < 0 ? '' : url.slice(q + 1))];
  let segments: string[];
  try {
    segments = path.slice('/rest/v1/'.length).split('/').map(decodeURIComponent);
  } catch {
    return { ok: false, error: error(404, 'PGRST125', 'Invalid path specified in request URL') };
  }
  const method = req.method ?? 'GET';
  if (segments.length === 2 && segments[0] === 'rpc') {
    const fn = segments[1] as string;
    if (method !== 'POST' && method !== 'GET' && method !== 'HEAD') return { ok: false, error: error(405, 'PGRST101', 'Only GET and POST are allowed for functions') };
    if (method === 'POST' && body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      return { ok: false, error: error(400, 'PGRST102', 'Empty or invalid json', 'rpc takes an object of named arguments') };
    }
    // The query string is select, filters, order and window over the function's rows; GET and HEAD
    // carry the arguments there too (null here: the function's argument names decide, PgDataApi).
    const range = parseRange(header(req, 'range'), header(req, 'range-unit'));
    if (!range.ok) return range;
    const args = method === 'POST' ? ((body ?? {}) as Record<string, unknown>) : null;
    return { ok: true, value: { kind: 'rpc', fn, args, pairs, range: range.value, head: method === 'HEAD' } };
  }
  if (segments.length !== 1 || segments[0] === '') return { ok: false, error: error(404, 'PGRST125', 'Invalid path specified in request URL') };
  const table = segments[0] as string;
  const query = parseRestQuery(pairs);
  if (!query.ok) return query;
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const range = parseRange(header(req, 'range'), header(req, 'range-unit'));
      if (!range.ok) return range;
      return { ok: true, value: { kind: 'read', table, query: query.value, range: range.value, head: method === 'HEAD' } };
    }
    case 'POST':
      return { ok: true, value: { kind: 'insert', table, query: query.value, body } };
    case 'PATCH':
      return { ok: true, value: { kind: 'update', table, query: query.value, body } };
    case 'DELETE':
      return { ok: true, value: { kind: 'delete', table, query: query.value } };
    default:
      return { ok: false, error: error(405, 'PGRST117', `Unsupported HTTP method: ${method.slice(0, 20)}`) };
  }
}
