import { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import { type DevServerState, isSandboxMissing, type SandboxDevServer } from '@kiln/domain';
import { createProxyServer, type ProxyServer } from 'http-proxy-3';

import { BRIDGE_PATH, BRIDGE_TAG, bridgeScript } from './bridge-script.js';
import {
  type PreviewPage,
  badRequestPage,
  failedPage,
  forbiddenPage,
  notFoundPage,
  startingPage,
  unauthorizedPage,
} from './preview-pages.js';
import { PREVIEW_AUTH_PATH, PREVIEW_SESSION_TTL_SECONDS, type PreviewTokens } from './preview-tokens.js';
import type { PreviewHostMatch, PreviewUrls } from './preview-url.js';

/** The preview's session cookie (host-only on the project's preview origin). */
export const PREVIEW_COOKIE = 'kiln_preview';
/** Everything under this path is the preview's own, never the app's. */
export const PREVIEW_RESERVED_PREFIX = '/__kiln/';
/** HTML bigger than this is passed through without the bridge rather than held in memory. */
export const MAX_INJECTED_HTML_BYTES = 8 * 1024 * 1024;
/** While a preview websocket (Vite's HMR) is open, the dev server is kept from its idle stop. */
export const WEBSOCKET_ACTIVITY_INTERVAL_MS = 60_000;
const CONNECT_TIMEOUT_MS = 10_000;

/** Hop-by-hop headers are the proxy's own business, never passed on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SAFE_NEXT = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]{0,2047}$/;

type Reply = { kind: 'page'; page: PreviewPage } | { kind: 'proxy'; socketPath: string };

/**
 * The live preview (docs/sandbox-api.md "Live preview", docs/security.md "Preview"): requests
 * whose Host is a project's preview origin are answered here and never reach the Kiln app.
 *
 * - `/__kiln/auth?token=…&next=/` exchanges a preview token for the session cookie;
 * - `/__kiln/bridge.js` is the console bridge injected into every HTML page;
 * - everything else needs the cookie of THIS project, then goes to the dev server the sandbox
 *   host made for the project — its Unix socket only, whatever the request
 *   says — with Kiln's Authorization header and the preview cookie removed; HTTP and websocket
 *   (Vite's HMR) alike.
 */
export class PreviewProxy {
  private readonly logger = new Logger('Preview');
  private readonly proxy: ProxyServer;
  private readonly bridge: string;
  private readonly frameAncestors: string;
  private readonly sockets = new Set<Duplex>();

  constructor(
    private readonly host: SandboxDevServer,
    private readonly urls: PreviewUrls,
    private readonly tokens: PreviewTokens,
    private readonly appOrigins: readonly string[],
  ) {
    this.bridge = bridgeScript(appOrigins);
    this.frameAncestors = `frame-ancestors 'self' ${appOrigins.join(' ')}`;
    this.proxy = createProxyServer({
      // The dev server sees `localhost` as its host (Vite's allowed-hosts check passes);
      // X-Forwarded-Host carries the preview origin.
      changeOrigin: true,
      xfwd: true,
      selfHandleResponse: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    this.proxy.on('proxyRes', (proxyRes, req, res) => this.relay(proxyRes, req, res));
    // Errors with a callback go there; this catches the rest (a websocket's client side failing).
    this.proxy.on('error', (error, _req, resOrSocket) => {
      this.logger.debug(`Proxy error: ${error.message}`);
      if (isSocket(resOrSocket)) resOrSocket.destroy();
    });
  }

  /** What a request's Host header names (the normal app, or a project's preview). */
  match(req: IncomingMessage): PreviewHostMatch {
    return this.urls.match(req.headers.host);
  }

  async handleRequest(req: IncomingMessage, res: ServerResponse, match: Exclude<PreviewHostMatch, { kind: 'app' }>): Promise<void> {
    res.on('error', () => undefined);
    try {
      const reply = await this.decide(req, res, match);
      if (reply === null) return;
      if (reply.kind === 'page') this.sendPage(req, res, reply.page);
      else this.forward(req, res, reply.socketPath);
    } catch (error) {
      this.logger.error(`Preview request failed: ${errorText(error)}`);
      if (!res.headersSent) this.sendPage(req, res, failedPage('The preview is not available right now.'));
      else res.destroy();
    }
  }

  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, match: Exclude<PreviewHostMatch, { kind: 'app' }>): Promise<void> {
    socket.on('error', () => undefined);
    try {
      if (match.kind !== 'preview' || !isPath(req.url)) return refuse(socket, match.kind === 'preview' ? 400 : 404);
      const { projectId } = match;
      if (!(await this.hasSession(req, projectId))) return refuse(socket, 401);
      // Browsers always send Origin on websocket handshakes: only the preview's own pages may connect.
      if (req.headers.origin !== undefined && !this.isOwnOrigin(req.headers.origin, projectId)) return refuse(socket, 403);
      const state = await this.devServer(projectId);
      const socketPath = state === null ? null : runningSocket(state);
      if (socketPath === null) return refuse(socket, state === null ? 404 : 503);
      stripKilnCredentials(req.headers);
      this.sockets.add(socket);
      const activity = setInterval(() => void this.host.devServer(projectId).catch(() => undefined), WEBSOCKET_ACTIVITY_INTERVAL_MS);
      activity.unref();
      socket.once('close', () => {
        clearInterval(activity);
        this.sockets.delete(socket);
      });
      this.proxy.ws(req, socket, head, { target: targetFor(socketPath) }, (error) => {
        this.logger.debug(`Preview websocket failed: ${error.message}`);
        socket.destroy();
      });
    } catch (error) {
      this.logger.error(`Preview websocket failed: ${errorText(error)}`);
      refuse(socket, 502);
    }
  }

  /** Closes every proxied websocket (API shutdown: the HTTP server can then close). */
  closeAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  // ---------------------------------------------------------------------------------------------

  /** The answer to a preview request, or null when it was answered already (auth redirect, bridge). */
  private async decide(req: IncomingMessage, res: ServerResponse, match: Exclude<PreviewHostMatch, { kind: 'app' }>): Promise<Reply | null> {
    if (match.kind !== 'preview') return page(notFoundPage());
    if (!isPath(req.url)) return page(badRequestPage());
    const { projectId } = match;
    // Split by hand: URL parsing would read '//host/…' as a host name.
    const queryAt = req.url.indexOf('?');
    const pathname = queryAt < 0 ? req.url : req.url.slice(0, queryAt);
    if (pathname === PREVIEW_AUTH_PATH) {
      await this.authenticate(req, res, projectId, new URLSearchParams(queryAt < 0 ? '' : req.url.slice(queryAt + 1)));
      return null;
    }
    if (pathname === BRIDGE_PATH) {
      this.sendBridge(req, res);
      return null;
    }
    if (pathname.startsWith(PREVIEW_RESERVED_PREFIX)) return page(notFoundPage());
    if (!(await this.hasSession(req, projectId))) return page(unauthorizedPage(this.appOrigins));
    const origin = req.headers.origin;
    if (!SAFE_METHODS.has(req.method ?? 'GET') && origin !== undefined && !this.isOwnOrigin(origin, projectId)) return page(forbiddenPage());
    const state = await this.devServer(projectId);
    if (state === null) return page(notFoundPage());
    const socketPath = runningSocket(state);
    if (socketPath !== null) return { kind: 'proxy', socketPath };
    if (state.status === 'failed') return page(failedPage(state.message || 'The dev server stopped with an error.'));
    if (state.status === 'running') return page(failedPage('This sandbox has no dev server.'));
    return page(startingPage(state.message || 'Starting the dev server…'));
  }

  /** `/__kiln/auth?token=…&next=/`: a valid token for this project becomes the session cookie. */
  private async authenticate(req: IncomingMessage, res: ServerResponse, projectId: string, query: URLSearchParams): Promise<void> {
    const token = query.get('token') ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !(await this.tokens.verifyToken(token, projectId))) {
      this.sendPage(req, res, unauthorizedPage(this.appOrigins));
      return;
    }
    const next = query.get('next') ?? '/';
    const session = await this.tokens.issueSession(projectId);
    res.writeHead(302, {
      Location: SAFE_NEXT.test(next) ? next : '/',
      // Partitioned + SameSite=None: the preview lives in a cross-site iframe of the builder,
      // where browsers drop SameSite=Lax cookies and block unpartitioned third-party ones.
      'Set-Cookie': `${PREVIEW_COOKIE}=${session}; Path=/; Max-Age=${PREVIEW_SESSION_TTL_SECONDS}; HttpOnly; Secure; SameSite=None; Partitioned`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'Content-Length': '0',
      ...this.ownHeaders(),
    });
    res.end();
  }

  private sendBridge(req: IncomingMessage, res: ServerResponse): void {
    const body = Buffer.from(this.bridge, 'utf8');
    res.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-cache',
      ...this.ownHeaders(),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private sendPage(req: IncomingMessage, res: ServerResponse, page: PreviewPage): void {
    const wantsHtml = page.status !== 503 || acceptsHtml(req);
    const body = Buffer.from(wantsHtml ? page.html : `${STATUS_CODES[page.status] ?? 'Error'}\n`, 'utf8');
    res.writeHead(page.status, {
      'Content-Type': wantsHtml ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
      'Content-Length': String(body.length),
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src ${page.scriptSource ?? "'none'"}; ${this.frameAncestors}`,
      ...page.headers,
      ...this.ownHeaders(),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private forward(req: IncomingMessage, res: ServerResponse, socketPath: string): void {
    stripKilnCredentials(req.headers);
    // Identity encoding: HTML must be readable to inject the bridge (loopback needs no compression).
    req.headers['accept-encoding'] = 'identity';
    this.proxy.web(req, res, { target: targetFor(socketPath) }, (error) => {
      this.logger.debug(`Preview upstream failed: ${error.message}`);
      if (res.headersSent) res.destroy();
      // The dev server went away between its state and the connection: it is (re)starting.
      else this.sendPage(req, res, startingPage('Waiting for the dev server…'));
    });
  }

  /** Writes the dev server's response, with the bridge in HTML and the preview's headers. */
  private relay(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void {
    proxyRes.on('error', () => res.destroy());
    const status = proxyRes.statusCode ?? 502;
    const headers = upstreamHeaders(proxyRes.headers);
    // The app's own CSP stays; ours only adds who may frame the preview (Kiln's origins).
    const csp = headers['content-security-policy'];
    const policies: string[] = csp === undefined ? [] : Array.isArray(csp) ? csp.map(String) : [String(csp)];
    headers['content-security-policy'] = [...policies, this.frameAncestors].join(', ');
    headers['x-content-type-options'] ??= 'nosniff';
    const type = String(proxyRes.headers['content-type'] ?? '');
    const encoding = String(proxyRes.headers['content-encoding'] ?? 'identity').toLowerCase();
    const inject = /^text\/html\b/i.test(type) && encoding === 'identity' && req.method !== 'HEAD' && status >= 200 && status !== 204 && status !== 304;
    if (!inject) {
      res.writeHead(status, headers);
      proxyRes.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size <= MAX_INJECTED_HTML_BYTES) return;
      // Too big to hold: pass it through as it is.
      proxyRes.off('data', onData);
      proxyRes.off('end', onEnd);
      res.writeHead(status, headers);
      for (const held of chunks) res.write(held);
      proxyRes.pipe(res);
    };
    const onEnd = () => {
      const body = injectBridge(Buffer.concat(chunks));
      headers['content-length'] = String(body.length);
      res.writeHead(status, headers);
      res.end(body);
    };
    proxyRes.on('data', onData);
    proxyRes.on('end', onEnd);
  }

  private async devServer(projectId: string): Promise<DevServerState | null> {
    try {
      return await this.host.devServer(projectId);
    } catch (error) {
      if (isSandboxMissing(error)) return null;
      throw error;
    }
  }

  private async hasSession(req: IncomingMessage, projectId: string): Promise<boolean> {
    for (const value of cookieValues(req.headers.cookie, PREVIEW_COOKIE)) {
      if (await this.tokens.verifySession(value, projectId)) return true;
    }
    return false;
  }

  private isOwnOrigin(origin: string, projectId: string): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const match = this.urls.match(url.host);
    return url.protocol === this.urls.protocol && match.kind === 'preview' && match.projectId === projectId;
  }

  /** Headers on everything the preview answers itself. */
  private ownHeaders(): OutgoingHttpHeaders {
    return { 'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'same-origin' };
  }
}

/** Where the dev server listens: the host's Unix socket for it, never anything from the request. */
function targetFor(socketPath: string): { protocol: string; host: string; port: number; socketPath: string } {
  // The port is only what the Host header would carry (80: none); the connection is the socket.
  return { protocol: 'http:', host: 'localhost', port: 80, socketPath };
}

/** The dev server's socket when it is running. */
function runningSocket(state: DevServerState): string | null {
  const { socketPath } = state;
  return state.status === 'running' && typeof socketPath === 'string' && socketPath.startsWith('/') ? socketPath : null;
}

function page(p: PreviewPage): Reply {
  return { kind: 'page', page: p };
}

/** Only origin-form request targets ('/path?query'): never an absolute URL or '*'. */
function isPath(url: string | undefined): url is string {
  return typeof url === 'string' && url.startsWith('/');
}

function acceptsHtml(req: IncomingMessage): boolean {
  const dest = req.headers['sec-fetch-dest'];
  if (dest === 'document' || dest === 'iframe') return true;
  return /text\/html/i.test(String(req.headers.accept ?? ''));
}

/** Every value of cookie `name` in a Cookie header (a page may have planted more than one). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** Removes Kiln's credentials before a request goes to project code: bearer tokens and the preview cookie. */
export function stripKilnCredentials(headers: IncomingHttpHeaders): void {
  delete headers.authorization;
  delete headers['proxy-authorization'];
  const cookie = headers.cookie;
  if (cookie === undefined) return;
  const kept = cookie
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.split('=', 1)[0]?.trim() !== PREVIEW_COOKIE);
  if (kept.length === 0) delete headers.cookie;
  else headers.cookie = kept.join('; ');
}

/** The upstream response's end-to-end headers. */
function upstreamHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = String(incoming.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  const out: OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(key) || named.includes(key)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * The HTML with the bridge's script tag right after `<head>` (or after `<html>`, or at the very
 * start after a doctype). Works on bytes, so any charset survives.
 */
export function injectBridge(html: Buffer): Buffer {
  const text = html.toString('latin1');
  const bom = text.startsWith('\xef\xbb\xbf') ? 3 : 0;
  const head = /<head(?:\s[^>]*)?>/i.exec(text);
  const htmlTag = head ? null : /<html(?:\s[^>]*)?>/i.exec(text);
  const doctype = head || htmlTag ? null : /^\s*<!doctype[^>]*>/i.exec(text.slice(bom));
  const at = head ? head.index + head[0].length : htmlTag ? htmlTag.index + htmlTag[0].length : bom + (doctype ? doctype[0].length : 0);
  return Buffer.concat([html.subarray(0, at), Buffer.from(BRIDGE_TAG, 'utf8'), html.subarray(at)]);
}

function refuse(socket: Duplex, status: number): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  setTimeout(() => socket.destroy(), 1_000).unref();
}

function isSocket(value: unknown): value is Duplex {
  return typeof value === 'object' && value !== null && 'destroy' in value && !('writeHead' in value);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
