import { createReadStream, readlinkSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import path from 'node:path';
import { HOSTS_DIR, isValidSiteHost, parsePointer, RELEASES_DIR } from './hosting-paths.js';
import { CACHE_REVALIDATE, entryBytes, type LargeSiteFile, loadSiteFile, requestSegments, type SiteFile, type SiteLookup } from './site-files.js';

export interface StaticSiteServerOptions {
  /** DATA_DIR/hosting, as given to LocalHostingProvider. */
  readonly hostingRoot: string;
  /** Whether a Host (lower-case, without port) is a published site's: the installer dispatches on it. */
  readonly isSiteHost: (host: string) => boolean;
  /** Memory for files and their compressed forms (default 64 MiB). */
  readonly cacheBytes?: number;
}

/** Headers on every answer: a published site is its own origin and is told nothing of Kiln's. */
const SECURITY_HEADERS: OutgoingHttpHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

const PAGE_404 = page('Not found', 'There is nothing at this address.');
const PAGE_NO_SITE = page('No site here', 'No site is published at this address.');
const PAGE_400 = page('Bad request', 'This address is not one a site can have.');
const PAGE_405 = page('Method not allowed', 'A published site only answers GET and HEAD.');
const PAGE_503 = page('Unavailable', 'This site cannot be served right now. Try again in a moment.');

/**
 * Serves published sites from the hosting folder (docs/hosting.md "Local hosting"), as a plain
 * Node handler the API puts in front of Express by Host (apps/api/src/serving/). The Host picks the
 * pointer `hosts/<host>`, read once per request (so a request is answered from one release, old or
 * new), and the file comes from that immutable release folder: cached in memory with its gzip and
 * brotli forms by release and path, never through a link.
 *
 * Public and cookie-less: Cookie and Authorization are stripped from the request before anything
 * reads it, no cookie is ever set, and every answer carries nosniff and a Referrer-Policy.
 */
export class StaticSiteServer {
  private readonly root: string;
  /** By `<projectId>/<releaseId>/<path>`, least recently used first; `bytes` as counted against cacheBytes. */
  private readonly cache = new Map<string, { entry: SiteLookup; bytes: number }>();
  private readonly loading = new Map<string, Promise<SiteLookup>>();
  private cachedBytes = 0;
  private readonly cacheBytes: number;

  constructor(private readonly options: StaticSiteServerOptions) {
    this.root = path.resolve(options.hostingRoot);
    this.cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
  }

  /** The request's host as the hosting folder names it (lower-case, no port, no trailing dot), or null. */
  static hostOf(req: IncomingMessage): string | null {
    const raw = req.headers.host;
    if (typeof raw !== 'string') return null;
    const host = raw.toLowerCase().replace(/:\d{1,5}$/, '').replace(/\.$/, '');
    return isValidSiteHost(host) ? host : null;
  }

  /** Whether this server answers the request (its Host is a site's). */
  matches(req: IncomingMessage): boolean {
    const host = StaticSiteServer.hostOf(req);
    return host !== null && this.options.isSiteHost(host);
  }

  /**
   * Whether a release is served on this host now (its pointer exists). For `isSiteHost` of custom
   * domains: the provider only points hosts the domain rules accepted (never Kiln's own).
   */
  serves(host: string): boolean {
    return isValidSiteHost(host) && this.releaseOf(host) !== null;
  }

  /** Answers one request; never throws. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    // Before anything else: nothing below may see a credential of Kiln's origin.
    delete req.headers.cookie;
    delete req.headers.authorization;
    res.on('error', () => undefined);
    try {
      this.answer(req, res);
    } catch {
      send(req, res, 503, PAGE_503);
    }
  }

  /** Forgets what is cached (all, or one release's files: a discarded release). */
  forget(projectId?: string): void {
    for (const key of [...this.cache.keys()]) {
      if (projectId === undefined || key.startsWith(`${projectId}/`)) this.drop(key);
    }
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(req, res, 405, PAGE_405, { Allow: 'GET, HEAD' });
      return;
    }
    const host = StaticSiteServer.hostOf(req);
    if (host === null) return send(req, res, 404, PAGE_NO_SITE);
    const release = this.releaseOf(host);
    if (release === null) return send(req, res, 404, PAGE_NO_SITE);
    const segments = requestSegments(req.url);
    if (segments === null) return send(req, res, 400, PAGE_400);
    const key = `${release.projectId}/${release.releaseId}/${segments.join('/')}`;
    const known = this.cache.get(key);
    if (known !== undefined) {
      // Most recently used last.
      this.cache.delete(key);
      this.cache.set(key, known);
      return this.reply(req, res, known.entry);
    }
    this.resolve(key, release, segments).then(
      (entry) => this.reply(req, res, entry),
      () => send(req, res, 503, PAGE_503),
    );
  }

  /** The file, or for a client-side route the release's index.html (the same object, cached under both keys). */
  private async resolve(key: string, release: { projectId: string; releaseId: string }, segments: readonly string[]): Promise<SiteLookup> {
    const entry = await this.load(key, release, segments);
    if (entry.kind !== 'route') return entry;
    const index = await this.load(`${release.projectId}/${release.releaseId}/index.html`, release, ['index.html']);
    const answer = index.kind === 'file' || index.kind === 'large' ? index : ({ kind: 'missing' } as const);
    if (answer.kind !== 'large') this.keep(key, answer, 256);
    return answer;
  }

  /** The release a host serves: its pointer, read now (an atomic rename may have just replaced it). */
  private releaseOf(host: string): { projectId: string; releaseId: string } | null {
    try {
      return parsePointer(readlinkSync(path.join(this.root, HOSTS_DIR, host)));
    } catch {
      return null;
    }
  }

  private load(key: string, release: { projectId: string; releaseId: string }, segments: readonly string[]): Promise<SiteLookup> {
    let pending = this.loading.get(key);
    if (pending === undefined) {
      const dir = path.join(this.root, RELEASES_DIR, release.projectId, release.releaseId);
      pending = loadSiteFile(dir, segments)
        .then((entry) => {
          if (entry.kind !== 'large' && entry.kind !== 'route') this.keep(key, entry, entryBytes(entry));
          return entry;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private keep(key: string, entry: SiteLookup, bytes: number): void {
    if (bytes > this.cacheBytes / 4) return;
    this.drop(key);
    this.cache.set(key, { entry, bytes });
    this.cachedBytes += bytes;
    while (this.cachedBytes > this.cacheBytes) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const known = this.cache.get(key);
    if (known === undefined) return;
    this.cache.delete(key);
    this.cachedBytes -= known.bytes;
  }

  private reply(req: IncomingMessage, res: ServerResponse, entry: SiteLookup): void {
    if (entry.kind === 'missing' || entry.kind === 'route') return send(req, res, 404, PAGE_404);
    if (entry.kind === 'large') return replyLarge(req, res, entry);
    const encoding = chooseEncoding(req.headers['accept-encoding'], entry);
    const body = encoding === 'br' ? (entry.br as Buffer) : encoding === 'gzip' ? (entry.gzip as Buffer) : entry.body;
    const etag = `"${entry.tag}${encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : ''}"`;
    const headers: OutgoingHttpHeaders = {
      ...SECURITY_HEADERS,
      'Content-Type': entry.contentType,
      'Cache-Control': entry.cacheControl,
      ETag: etag,
      ...(entry.gzip !== null || entry.br !== null ? { Vary: 'Accept-Encoding' } : {}),
    };
    if (matchesTag(req.headers['if-none-match'], entry.tag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }
}

function replyLarge(req: IncomingMessage, res: ServerResponse, entry: LargeSiteFile): void {
  const headers: OutgoingHttpHeaders = { ...SECURITY_HEADERS, 'Content-Type': entry.contentType, 'Cache-Control': entry.cacheControl, ETag: entry.tag };
  if (matchesTag(req.headers['if-none-match'], entry.tag.slice(1, -1))) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': entry.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // The release is Kiln's read-only copy: no link in it (loadSiteFile checked the path).
  const stream = createReadStream(entry.file, { start: 0, end: entry.size - 1 });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** br when asked for and smaller, else gzip, else the bytes themselves; `q=0` refuses an encoding. */
export function chooseEncoding(header: string | string[] | undefined, entry: Pick<SiteFile, 'gzip' | 'br'>): 'br' | 'gzip' | 'identity' {
  if (typeof header !== 'string' || (entry.br === null && entry.gzip === null)) return 'identity';
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name !== undefined && name !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (entry.br !== null && accepted.has('br')) return 'br';
  if (entry.gzip !== null && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return 'identity';
}

/** Whether If-None-Match names this content (any of its encodings: W/ and -gz/-br ignored), or is `*`. */
export function matchesTag(header: string | string[] | undefined, tag: string): boolean {
  if (typeof header !== 'string') return false;
  return header.split(',').some((raw) => {
    const t = raw.trim().replace(/^W\//, '');
    return t === '*' || t === `"${tag}"` || t === `"${tag}-gz"` || t === `"${tag}-br"`;
  });
}

function send(req: IncomingMessage, res: ServerResponse, status: number, html: Buffer, extra: OutgoingHttpHeaders = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...extra,
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': CACHE_REVALIDATE,
    'Content-Length': html.length,
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}

function page(title: string, text: string): Buffer {
  return Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
      `<style>body{font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:100vh;margin:0;color:#333}</style></head>` +
      `<body><main><h1>${title}</h1><p>${text}</p></main></body></html>\n`,
  );
}
