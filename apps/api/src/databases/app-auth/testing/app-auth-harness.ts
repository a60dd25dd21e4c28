import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Argon2PasswordHasher, CryptoRandom, Sha256SecretHasher, SystemClock, UuidIds } from '@kiln/adapters';
import { type DatabaseConnectionFacts, type RateLimiter, err, databaseNotConnected, ok } from '@kiln/domain';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { installHostDispatch } from '../../../serving/install-host-dispatch.js';
import { signAnonKey } from '../../anon-key.js';
import { AppAuthHandler, type AppAuthHandlerDeps } from '../app-auth.handler.js';

/** The test's own host matcher for `{ref}.data.localhost` (the real dispatcher is the data API's). */
export const DATA_HOST = /^([a-z0-9]{20})\.data\.localhost(?::\d+)?$/;
export const refOfHost = (req: IncomingMessage): string | null => DATA_HOST.exec(req.headers.host ?? '')?.[1] ?? null;

export interface AppAuthServer {
  readonly port: number;
  readonly server: Server;
  readonly handler: AppAuthHandler;
  anonKey(ref: string): Promise<string>;
  client(ref: string, key?: string): Promise<SupabaseClient>;
  close(): Promise<void>;
}

/** Fast argon2id for tests (the production cost is OWASP's). */
const TEST_ARGON2 = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/**
 * fetch for `*.data.localhost`, which this machine's resolver does not know: every name goes
 * to 127.0.0.1 and the Host header stays the URL's (what a browser would send).
 */
export function loopbackFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: url.port, path: `${url.pathname}${url.search}`, method: init.method ?? 'GET', headers: { ...Object.fromEntries(headers), host: url.host } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 500;
          resolve(new Response(status === 204 ? null : Buffer.concat(chunks), { status, headers: out }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (typeof init.body === 'string') req.write(init.body);
    req.end();
  });
}

/** An HTTP server with the app sign-in handler installed for `{ref}.data.localhost`, Express-less (404 for anything else). */
export async function startAppAuthServer(options: {
  readonly secrets: ReadonlyMap<string, string>;
  readonly stores: AppAuthHandlerDeps['stores'];
  readonly rateLimiter: RateLimiter;
}): Promise<AppAuthServer> {
  const connections: AppAuthHandlerDeps['connections'] = {
    byRef: (ref) => {
      const jwtSecret = options.secrets.get(ref);
      if (!jwtSecret) return Promise.resolve(err(databaseNotConnected()));
      const facts: DatabaseConnectionFacts = {
        ref,
        projectId: `project-${ref}`,
        ownerId: 'owner',
        jwtSecret,
        connection: { host: '127.0.0.1', port: 5432, database: `kiln_app_${ref}`, user: `kiln_app_${ref}_authenticator`, password: 'unused', ssl: false },
      };
      return Promise.resolve(ok(facts));
    },
  };
  let port = 0;
  const handler = new AppAuthHandler({
    connections,
    stores: options.stores,
    rateLimiter: options.rateLimiter,
    passwords: new Argon2PasswordHasher(TEST_ARGON2),
    hasher: new Sha256SecretHasher(),
    clock: new SystemClock(),
    random: new CryptoRandom(),
    ids: new UuidIds(),
    dataUrlFor: (ref) => `http://${ref}.data.localhost:${port}`,
  });
  const server = createServer((_req, res) => {
    res.statusCode = 404;
    res.end('app');
  });
  installHostDispatch(server, [
    {
      matches: (req) => refOfHost(req) !== null && (req.url ?? '').startsWith('/auth/v1/'),
      handleRequest: (req, res) => void handler.handle(refOfHost(req)!, req, res),
    },
  ]);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const anonKey = (ref: string) => signAnonKey(ref, options.secrets.get(ref) ?? 'x'.repeat(40));
  return {
    port,
    server,
    handler,
    anonKey,
    client: async (ref, key) =>
      createClient(`http://${ref}.data.localhost:${port}`, key ?? (await anonKey(ref)), {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        global: { fetch: loopbackFetch },
        realtime: { transport: WebSocket as never },
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
