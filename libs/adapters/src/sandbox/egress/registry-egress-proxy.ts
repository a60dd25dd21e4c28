import { lookup as dnsLookup } from 'node:dns/promises';
import { lstat, mkdir, stat, unlink } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { refusedAddressKind } from './egress-addresses.js';
import {
  bypassesProxy,
  type EgressTarget,
  noProxyFromEnv,
  parseConnectTarget,
  registryFromEnv,
  targetKey,
  upstreamProxyFromEnv,
  urlTarget,
} from './egress-targets.js';

/** Resolving and connecting to the registry (or through the upstream proxy) may take this long. */
export const EGRESS_CONNECT_TIMEOUT_MS = 10_000;
/** A tunnel or request with no byte either way for this long is closed. */
export const EGRESS_IDLE_TIMEOUT_MS = 60_000;
/** Tunnels and forwarded requests open at once, over every install; more are answered 503. */
export const EGRESS_MAX_TUNNELS = 64;
/** A client has this long to send its request head. */
const HEADERS_TIMEOUT_MS = 10_000;
/** Linux's limit for a Unix socket's path (sun_path, 108 bytes with the final NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

export interface RegistryEgressProxyOptions {
  /** The Unix socket to listen on. Its folder is created 0700; an existing one must be ours and 0700. */
  readonly socketPath: string;
  /** npm's registry; default `npm_config_registry` / `NPM_CONFIG_REGISTRY`, else registry.npmjs.org. */
  readonly registry?: string;
  /** More `host:port` CONNECT targets (a scoped registry, say). */
  readonly allow?: readonly string[];
  /** Tests only: allowed names may resolve to loopback (a local fake registry). */
  readonly allowLoopback?: boolean;
  readonly connectTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly maxTunnels?: number;
  /**
   * An `http://[user:pass@]host:port` proxy the host needs to reach the internet: allowed targets
   * are CONNECTed through it (and it resolves them). Default from `npm_config_https_proxy` /
   * `HTTPS_PROXY`; null for none.
   */
  readonly upstreamProxy?: string | null;
  /** Targets reached without the upstream proxy (NO_PROXY syntax); default from the environment. */
  readonly noProxy?: readonly string[];
  /** A host's addresses; default every address dns.lookup gives. */
  readonly lookup?: (host: string) => Promise<readonly string[]>;
  /** Told why each request was refused (for the log). */
  readonly onRefused?: (reason: string) => void;
}

/** A request the policy refuses: answered with this status, counted in `refusedCount`. */
class Refused extends Error {
  constructor(
    readonly status: 403 | 503,
    message: string,
  ) {
    super(message);
  }
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/**
 * The only way out of an install sandbox: an HTTP proxy on a Unix socket (bound into the sandbox
 * and reached through runtime/egress-forwarder.mjs) that tunnels `CONNECT host:port` to the npm
 * registry and nothing else. It resolves the name itself and refuses loopback, private,
 * link-local and other non-public addresses, so neither a package's metadata nor the DNS can
 * point npm at the host's own services. Plain HTTP requests are forwarded only when the registry
 * itself is `http:`. Bounded in time and in tunnels.
 */
export class RegistryEgressProxy {
  readonly socketPath: string;
  private readonly connectAllowed = new Set<string>();
  private readonly httpAllowed = new Set<string>();
  private readonly upstream: URL | null;
  private readonly noProxy: readonly string[];
  private readonly sockets = new Set<Duplex>();
  private server: Server | null = null;
  private tunnels = 0;
  private opened = 0;
  private refused = 0;

  constructor(private readonly options: RegistryEgressProxyOptions) {
    this.socketPath = path.resolve(options.socketPath);
    const registry = urlTarget(options.registry ?? registryFromEnv());
    if (registry === null) throw new Error(`The npm registry is not an http(s) URL: ${options.registry ?? registryFromEnv()}`);
    (registry.protocol === 'https:' ? this.connectAllowed : this.httpAllowed).add(targetKey(registry));
    for (const entry of options.allow ?? []) {
      const target = parseConnectTarget(entry);
      if (target === null) throw new Error(`Not a host:port: ${entry}`);
      this.connectAllowed.add(targetKey(target));
    }
    const upstream = options.upstreamProxy === undefined ? upstreamProxyFromEnv() : options.upstreamProxy;
    this.upstream = upstream === null ? null : new URL(upstream);
    if (this.upstream !== null && this.upstream.protocol !== 'http:') throw new Error(`Only an http:// upstream proxy is supported, not ${this.upstream.protocol}`);
    this.noProxy = options.noProxy ?? noProxyFromEnv();
  }

  /** Requests refused by the policy (403) or for want of a free tunnel (503). */
  get refusedCount(): number {
    return this.refused;
  }

  /** Connections made to the registry so far (tunnels and forwarded requests). */
  get openedCount(): number {
    return this.opened;
  }

  /** Tunnels and forwarded requests open now. */
  get openTunnels(): number {
    return this.tunnels;
  }

  async start(): Promise<void> {
    if (this.server !== null) return;
    await prepareSocketFolder(this.socketPath);
    const server = createServer();
    server.headersTimeout = HEADERS_TIMEOUT_MS;
    server.requestTimeout = 0; // a tarball may take long; the idle timeout bounds a stalled one
    server.maxConnections = this.maxTunnels() * 2;
    server.on('connection', (socket: Socket) => this.track(socket));
    server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void this.onConnect(req, client, head));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void this.onRequest(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Serving installs never keeps the process alive by itself (the API's own server does).
    server.unref();
    this.server = server;
  }

  /** Stops listening, closes every tunnel and removes the socket. */
  async stop(): Promise<void> {
    const server = this.server;
    if (server === null) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await unlink(this.socketPath).catch(() => undefined);
  }

  private async onConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    const target = parseConnectTarget(req.url ?? '');
    try {
      if (target === null || !this.connectAllowed.has(targetKey(target))) throw new Refused(403, `CONNECT ${req.url ?? ''} is not the registry`);
      const release = this.acquireTunnel();
      client.once('close', release);
      try {
        const upstream = this.track(await this.open(target));
        if (client.destroyed) return void upstream.destroy();
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        this.splice(client, upstream);
      } catch (e) {
        release();
        throw e;
      }
    } catch (e) {
      this.answerRaw(client, e);
    }
  }

  /** Plain HTTP: forwarded only to an `http:` registry, with its body streamed both ways. */
  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = urlTarget(req.url ?? '');
    try {
      if (target === null || target.protocol !== 'http:' || !this.httpAllowed.has(targetKey(target))) {
        throw new Refused(403, `${req.method ?? 'GET'} ${req.url ?? ''} is not the registry`);
      }
      const release = this.acquireTunnel();
      try {
        const socket = this.track(await this.open(target));
        const url = new URL(req.url as string);
        const headers = withoutHopByHop(req.headers);
        const forwarded = httpRequest({ createConnection: () => socket, method: req.method, path: `${url.pathname}${url.search}`, headers });
        forwarded.on('response', (answer) => {
          res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
          answer.pipe(res);
        });
        forwarded.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end('The registry could not be reached\n')));
        socket.setTimeout(this.options.idleTimeoutMs ?? EGRESS_IDLE_TIMEOUT_MS, () => socket.destroy());
        req.pipe(forwarded);
        await new Promise<void>((resolve) => res.once('close', resolve));
        socket.destroy();
      } finally {
        release();
      }
    } catch (e) {
      if (e instanceof Refused) this.countRefusal(e.message);
      if (res.headersSent) return void res.destroy();
      const status = e instanceof Refused ? e.status : 502;
      res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(`${errorMessage(e)}\n`);
    }
  }

  /** Takes one tunnel of the budget; the answer gives it back (once, however often it is called). */
  private acquireTunnel(): () => void {
    if (this.tunnels >= this.maxTunnels()) throw new Refused(503, 'Too many registry connections at once');
    this.tunnels += 1;
    let held = true;
    return () => {
      if (held) this.tunnels -= 1;
      held = false;
    };
  }

  /** A socket to the target: through the upstream proxy, or to an address that passed the checks. */
  private async open(target: EgressTarget): Promise<Socket> {
    const timeoutMs = this.options.connectTimeoutMs ?? EGRESS_CONNECT_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${targetKey(target)} did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    const attempt = this.upstream !== null && !bypassesProxy(target, this.noProxy) ? this.openThroughUpstream(target) : this.openDirect(target);
    try {
      const socket = await Promise.race([attempt, timeout]);
      this.opened += 1;
      return socket;
    } catch (e) {
      // A connection that finishes after the timeout is closed as soon as it exists.
      void attempt.then((socket) => socket.destroy(), () => undefined);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private async openDirect(target: EgressTarget): Promise<Socket> {
    const addresses = await (this.options.lookup ?? lookupAll)(target.host);
    if (addresses.length === 0) throw new Error(`${target.host} has no address`);
    // One bad address refuses them all: a name pointing anywhere inside is not the registry.
    for (const address of addresses) {
      const kind = refusedAddressKind(address, { allowLoopback: this.options.allowLoopback === true });
      if (kind !== null) throw new Refused(403, `${target.host} resolves to a ${kind} address (${address})`);
    }
    let failure: unknown;
    for (const address of addresses) {
      try {
        return await connectTo(address, target.port);
      } catch (e) {
        failure = e;
      }
    }
    throw failure;
  }

  private openThroughUpstream(target: EgressTarget): Promise<Socket> {
    const upstream = this.upstream as URL;
    const key = targetKey(target);
    const headers: OutgoingHttpHeaders = { host: key };
    if (upstream.username !== '') {
      const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
      headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: upstream.hostname.replace(/^\[(.*)\]$/, '$1'), port: upstream.port || 80, method: 'CONNECT', path: key, headers, agent: false });
      req.once('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
        if (res.statusCode !== 200) {
          socket.destroy();
          return reject(new Error(`The upstream proxy answered ${res.statusCode ?? '?'} to CONNECT ${key}`));
        }
        if (head.length > 0) socket.unshift(head);
        resolve(socket);
      });
      req.once('error', reject);
      req.end();
    });
  }

  /** Pipes both ways; either side closing, failing or idling closes both. */
  private splice(a: Duplex, b: Socket): void {
    const idleMs = this.options.idleTimeoutMs ?? EGRESS_IDLE_TIMEOUT_MS;
    const close = () => {
      a.destroy();
      b.destroy();
    };
    for (const socket of [a, b]) {
      socket.once('error', close);
      socket.once('close', close);
      if ('setTimeout' in socket && typeof socket.setTimeout === 'function') (socket as Socket).setTimeout(idleMs, close);
    }
    a.pipe(b);
    b.pipe(a);
  }

  private answerRaw(client: Duplex, e: unknown): void {
    const status = e instanceof Refused ? e.status : 502;
    if (e instanceof Refused) this.countRefusal(e.message);
    const body = `${errorMessage(e)}\n`;
    const reason = status === 403 ? 'Forbidden' : status === 503 ? 'Service Unavailable' : 'Bad Gateway';
    if (client.destroyed) return;
    client.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  private countRefusal(reason: string): void {
    this.refused += 1;
    this.options.onRefused?.(reason);
  }

  private track<T extends Duplex>(socket: T): T {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  private maxTunnels(): number {
    return this.options.maxTunnels ?? EGRESS_MAX_TUNNELS;
  }
}

async function lookupAll(host: string): Promise<readonly string[]> {
  return (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

function connectTo(address: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * The socket's folder, 0700 and ours (only the API's user, and the sandboxes it binds the folder
 * into, may connect), without a stale socket from a previous run. A live one is not taken over.
 */
async function prepareSocketFolder(socketPath: string): Promise<void> {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`The egress proxy's socket path is longer than ${MAX_SOCKET_PATH_BYTES} bytes: ${socketPath}`);
  }
  const dir = path.dirname(socketPath);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await stat(dir);
  if (info.uid !== process.getuid?.() || (info.mode & 0o077) !== 0) {
    throw new Error(`The egress proxy's folder ${dir} must belong to this user and be private (mode 0700)`);
  }
  const existing = await lstat(socketPath).catch(() => null);
  if (existing === null) return;
  if (!existing.isSocket()) throw new Error(`${socketPath} exists and is not a socket`);
  if (await isListening(socketPath)) throw new Error(`Another process listens on ${socketPath}`);
  await unlink(socketPath);
}

function isListening(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Headers meant for one connection (and the proxy's credentials) stay on this side. */
function withoutHopByHop(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) kept[name] = value;
  return kept;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
