import { createServer, type IncomingHttpHeaders, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface EdgeResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * A GET to the edge on 127.0.0.1 as a browser would send it to `host` (the name resolved to
 * 127.0.0.1): Host header, and over HTTPS the SNI, verified against `ca` only.
 */
export function edgeGet(options: {
  readonly scheme: 'http' | 'https';
  readonly port: number;
  readonly host: string;
  readonly path?: string;
  readonly ca?: string | readonly string[];
  readonly headers?: Record<string, string>;
}): Promise<EdgeResponse> {
  return new Promise((resolve, reject) => {
    const common = { host: '127.0.0.1', port: options.port, path: options.path ?? '/', headers: { host: options.host, ...options.headers }, timeout: 10_000 };
    const req =
      options.scheme === 'https'
        ? httpsRequest({ ...common, servername: options.host, ca: options.ca === undefined ? undefined : [options.ca].flat(), agent: false })
        : httpRequest({ ...common, agent: false });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('edge request timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Kiln's ask endpoint as Caddy sees it: 200 for the allowed hosts, 404 otherwise; remembers every question. */
export class AskServer {
  readonly asked: string[] = [];
  readonly allowed = new Set<string>();
  private readonly server: Server = createServer((req, res) => {
    const domain = new URL(req.url ?? '/', 'http://ask').searchParams.get('domain') ?? '';
    this.asked.push(domain);
    res.statusCode = req.method === 'GET' && this.allowed.has(domain) ? 200 : 404;
    res.end();
  });

  static async start(): Promise<AskServer> {
    const ask = new AskServer();
    await new Promise<void>((resolve) => ask.server.listen(0, '127.0.0.1', resolve));
    return ask;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/hosting/tls-allowed`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
