import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

export const PAGE = '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>App</title>\n</head>\n<body><div id="root"></div></body>\n</html>\n';
export const SCRIPT = 'console.log("app");\n';

/**
 * A tiny stand-in for a project's Vite dev server: an HTML page, a script, an echo of what it
 * received, and a websocket endpoint that accepts the handshake and echoes raw bytes. It records
 * every request and connection, so tests can tell whether the proxy ever reached it.
 */
export class FakeDevServer {
  readonly requests: SeenRequest[] = [];
  readonly upgrades: SeenRequest[] = [];
  connections = 0;
  private readonly server: http.Server;
  private readonly sockets = new Set<Socket>();

  constructor() {
    this.server = http.createServer((req, res) => {
      this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      if (req.url === '/' || req.url === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(PAGE), ETag: '"v1"', 'X-Upstream': 'yes' });
        res.end(PAGE);
      } else if (req.url === '/app.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript', 'Content-Length': Buffer.byteLength(SCRIPT) });
        res.end(SCRIPT);
      } else if (req.url === '/gzipped') {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' });
        res.end(Buffer.from([0x1f, 0x8b]));
      } else if (req.url === '/csp') {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': "script-src 'self'" });
        res.end('<head></head>');
      } else if (req.url?.startsWith('/echo')) {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        req.on('end', () => {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': 'app_session=1; Path=/' });
          res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
        });
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('not found');
      }
    });
    this.server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('upgrade', (req, socket: Socket, head: Buffer) => {
      this.upgrades.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const key = String(req.headers['sec-websocket-key'] ?? '');
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
      if (head.length > 0) socket.write(head);
      socket.on('data', (chunk) => socket.write(chunk)); // echo
      socket.on('error', () => undefined);
    });
  }

  private dir: string | null = null;

  /** Listens on a Unix socket, as sandbox dev servers do; answers its path. */
  async start(): Promise<string> {
    this.dir = mkdtempSync(path.join(tmpdir(), 'kiln-fake-dev-'));
    const socketPath = path.join(this.dir, 'dev.sock');
    await new Promise<void>((resolve) => this.server.listen(socketPath, resolve));
    return socketPath;
  }

  /** Listens on a loopback TCP port instead (a decoy no request may reach); answers the port. */
  async startTcp(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this.port;
  }

  get socketPath(): string {
    return this.server.address() as string;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A request to 127.0.0.1:<port> with any Host header (Node's resolver may not know *.localhost). */
export function rawRequest(
  port: number,
  options: { host: string; path: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { Host: options.host, ...options.headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A websocket handshake through the proxy. Resolves 'open' with the socket after a 101, or the
 * status line's code when refused.
 */
export function websocketHandshake(
  port: number,
  options: { host: string; path?: string; headers?: Record<string, string> },
): Promise<{ status: number; socket: Socket | null }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: options.path ?? '/',
      agent: false,
      headers: {
        Host: options.host,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...options.headers,
      },
    });
    req.on('upgrade', (res, socket: Socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, socket: null });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Writes bytes on an upgraded socket and resolves with the first bytes that come back. */
export function echo(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8')));
    socket.write(text);
  });
}
