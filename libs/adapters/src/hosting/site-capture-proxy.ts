import { chmod } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createSecureContext, type SecureContext, TLSSocket } from 'node:tls';
import { isValidSiteHost } from './hosting-paths.js';
import { StaticSiteServer } from './static-site-server.js';

export interface SiteCaptureProxyOptions {
  /** DATA_DIR/hosting: the one site is served from its release there. */
  readonly hostingRoot: string;
  /** The site's host (lower-case, no port): the only one answered. */
  readonly host: string;
  /** Certificate and key for `https://<host>` (any: the browser is told to accept it, see the screenshotter). */
  readonly tls?: { readonly cert: string; readonly key: string };
}

/** Files of one capture held in memory: a page is a few MB at most. */
const CACHE_BYTES = 16 * 1024 * 1024;
const IDLE_MS = 20_000;

/**
 * The one way out of a screenshot's jail (docs/security.md "Screenshots"): an HTTP proxy Kiln
 * serves on a Unix socket bound into the jail (or on loopback, unisolated), answering only the
 * site being captured, straight from its release folder through StaticSiteServer. Nothing is
 * forwarded anywhere: a request for any other host — an IP literal, localhost, another site, a
 * public name — is a 403 and never leaves this process, so no DNS answer (rebinding included) or
 * redirect can point it elsewhere. `CONNECT <host>:<port>` for the site itself is answered with
 * TLS terminated here (the site's `https://` URL); any other tunnel (WebSockets, other hosts) is
 * refused.
 */
export class SiteCaptureProxy {
  private readonly server: Server;
  private readonly site: StaticSiteServer;
  private readonly secure: SecureContext | null;
  /** What was refused, `METHOD target` (the first 100), for logs and tests. */
  readonly refused: string[] = [];

  constructor(private readonly options: SiteCaptureProxyOptions) {
    if (!isValidSiteHost(options.host)) throw new Error(`${options.host} is not a site host`);
    this.site = new StaticSiteServer({ hostingRoot: options.hostingRoot, isSiteHost: (h) => h === options.host, cacheBytes: CACHE_BYTES });
    this.secure = options.tls ? createSecureContext({ cert: options.tls.cert, key: options.tls.key }) : null;
    this.server = createServer({ requestTimeout: IDLE_MS, headersTimeout: IDLE_MS }, (req, res) => this.request(req, res));
    this.server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.connect(req, socket, head));
    this.server.on('clientError', (_e, socket: Duplex) => socket.destroy());
  }

  /** Listens on a Unix socket only the jail's uid may use through its folder (0666: the jail runs as another uid). */
  async listenOnSocket(socketPath: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(socketPath, () => resolve());
    });
    await chmod(socketPath, 0o666);
  }

  /** Listens on a loopback port of the host (the unisolated development fallback); answers the port. */
  async listenOnLoopback(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private request(req: IncomingMessage, res: ServerResponse): void {
    // Absolute-form from the proxy client (`GET http://host/path`), origin-form inside a TLS tunnel.
    const raw = req.url ?? '';
    let path = raw;
    if (!raw.startsWith('/')) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return this.refuse(req, res);
      }
      if (url.protocol !== 'http:' || url.username !== '' || url.password !== '' || url.hostname.toLowerCase() !== this.options.host) return this.refuse(req, res);
      path = `${url.pathname}${url.search}`;
    }
    if (StaticSiteServer.hostOf(req) !== this.options.host) return this.refuse(req, res);
    req.url = path;
    this.site.handle(req, res);
  }

  private connect(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    const target = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(req.url ?? '');
    if (this.secure === null || target === null || target[1]!.toLowerCase() !== this.options.host) {
      this.note(`CONNECT ${req.url ?? ''}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    const tls = new TLSSocket(socket as Socket, { isServer: true, secureContext: this.secure });
    tls.on('error', () => socket.destroy());
    // The same server reads the tunnel's requests; their Host must still be the site's.
    this.server.emit('connection', tls);
  }

  private note(what: string): void {
    if (this.refused.length < 100) this.refused.push(what.slice(0, 300));
  }

  private refuse(req: IncomingMessage, res: ServerResponse): void {
    this.note(`${req.method ?? '?'} ${req.url ?? ''}`);
    res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    res.end('Only the site being captured can be reached.\n');
  }
}
