import { DataApiServer, LocalPostgresProvisioner, PgAppAuthStores, PgChangeFeed, PgDataApi, PgRealtimeFanout, RealtimeServer, localSchemaMigrator } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import { DEFAULT_REALTIME_LIMITS, GetDatabaseConnection, type RealtimeLimits } from '@kiln/domain';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import WebSocket from 'ws';
import { loopbackFetch } from '../../app-auth/testing/app-auth-harness.js';
import { type TestApp, newUser, setPlan, signIn, startTestApp } from '../../../testing/e2e.js';

export const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/**
 * A WebSocket for `{ref}.data.localhost`, which this machine's resolver does not know: it connects
 * to 127.0.0.1 and keeps the URL's Host header (what a browser would send).
 */
export class LoopbackWebSocket extends WebSocket {
  constructor(address: string | URL, protocols?: string | string[]) {
    const url = new URL(address.toString());
    const host = url.host;
    url.hostname = '127.0.0.1';
    super(url.toString(), protocols, { headers: { host } });
  }
}

export interface RealtimeApp {
  readonly t: TestApp;
  readonly port: number;
  readonly realtime: RealtimeServer;
  readonly changes: PgChangeFeed;
  /** A project with a provisioned database: its ref, anon key, JWT secret and project id. */
  project(): Promise<{ ref: string; anonKey: string; jwtSecret: string; projectId: string; owner: { auth: Record<string, string> } }>;
  /** SQL in a project database as its owner role (what a migration does). */
  asOwner(ref: string, sql: string): Promise<void>;
  client(ref: string, key: string): SupabaseClient;
  close(): Promise<void>;
}

/** The real API app with project databases on the local PostgreSQL, its data origin serving /rest/v1, /auth/v1 and /realtime/v1. */
export async function startRealtimeApp(options: { limits?: Partial<RealtimeLimits>; instanceId?: string } = {}): Promise<RealtimeApp> {
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const api = new PgDataApi({ statementTimeoutMs: 5000 });
  const fanout = new PgRealtimeFanout({ url: adminUrl });
  const changes = new PgChangeFeed(api);
  const appAuthStores = new PgAppAuthStores({ adminUrl });
  let realtime: RealtimeServer | null = null;
  const made: string[] = [];
  const clients: SupabaseClient[] = [];
  const t = await startTestApp({
    overrides: {
      databases: {
        provisioner,
        migrator: localSchemaMigrator(adminUrl),
        appAuthStores,
        dataOrigin: (targets, services, quota) => {
          realtime = new RealtimeServer({ targets, fanout, changes, limits: { ...DEFAULT_REALTIME_LIMITS, ...options.limits }, ...(options.instanceId ? { instanceId: options.instanceId } : {}) });
          return new DataApiServer('http://{ref}.data.localhost:{port}', targets, api, [...services, realtime], () => {}, quota);
        },
        close: async () => {
          await (realtime as RealtimeServer | null)?.close();
          await fanout.close();
          await api.close();
          await appAuthStores.close();
        },
      },
    },
  });
  const address = t.app.getHttpServer().address() as { port: number };
  return {
    t,
    port: address.port,
    get realtime() {
      return realtime as unknown as RealtimeServer;
    },
    changes,
    project: async () => {
      const user = newUser();
      await signIn(t, user);
      await setPlan(t, user.id, 'pro_monthly');
      const projectId = ((await t.http().post('/api/projects').set(user.auth).send({ name: 'Realtime' }).expect(201)).body as { id: string }).id;
      const { ref, anon_key: anonKey } = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: projectId }).expect(200)).body as { ref: string; anon_key: string };
      made.push(ref);
      const facts = await t.app.get(GetDatabaseConnection).byRef(ref);
      if (!facts.ok) throw new Error('no database');
      return { ref, anonKey, jwtSecret: facts.value.jwtSecret, projectId, owner: user };
    },
    asOwner: async (ref, sql) => {
      const admin = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/kiln_app_${ref}`) });
      await admin.connect();
      try {
        await admin.query(`SET ROLE "kiln_app_${ref}_owner"`);
        await admin.query(sql);
      } finally {
        await admin.end();
      }
    },
    client: (ref, key) => {
      const c = createClient(`http://${ref}.data.localhost:${address.port}`, key, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        global: { fetch: loopbackFetch },
        realtime: { transport: LoopbackWebSocket as never },
      });
      clients.push(c);
      return c;
    },
    close: async () => {
      for (const c of clients) {
        await c.removeAllChannels().catch(() => {});
        c.realtime.disconnect();
      }
      await t.close();
      for (const ref of made) await provisioner.drop(ref).catch(() => {});
      await provisioner.close();
    },
  };
}

/** A raw socket on a data origin, for what realtime-js would never send. */
export function rawSocket(port: number, ref: string, apikey: string): LoopbackWebSocket {
  return new LoopbackWebSocket(`ws://${ref}.data.localhost:${port}/realtime/v1/websocket?apikey=${encodeURIComponent(apikey)}&vsn=2.0.0`);
}

/** Resolves with the first frame (parsed) for which `match` is true. */
export function nextFrame(ws: WebSocket, match: (frame: unknown[]) => boolean): Promise<unknown[]> {
  return new Promise((resolve) => {
    const on = (data: Buffer, binary: boolean) => {
      if (binary) return;
      const frame = JSON.parse(data.toString('utf8')) as unknown[];
      if (match(frame)) {
        ws.off('message', on);
        resolve(frame);
      }
    };
    ws.on('message', on);
  });
}

export function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
}

export function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
}

/** Resolves when `predicate` holds, checked after each event the caller reports through `poke`. */
export function until<T>(subscribe: (poke: (value: T) => void) => void, predicate: (value: T) => boolean): Promise<T> {
  return new Promise((resolve) => subscribe((v) => predicate(v) && resolve(v)));
}

/** Items as they arrive; `count(n)` resolves once there are n (the test's timeout bounds the wait). */
export class Inbox<T> {
  readonly items: T[] = [];
  private waiters: { n: number; resolve: () => void }[] = [];

  readonly push = (item: T): void => {
    this.items.push(item);
    this.waiters = this.waiters.filter((w) => (this.items.length >= w.n ? (w.resolve(), false) : true));
  };

  count(n: number): Promise<T[]> {
    return new Promise((resolve) => (this.items.length >= n ? resolve(this.items) : this.waiters.push({ n, resolve: () => resolve(this.items) })));
  }
}

/** Subscribes and resolves on SUBSCRIBED; rejects on an error or a timeout. */
export function subscribed(channel: { subscribe(cb: (status: string, err?: Error) => void): unknown }): Promise<void> {
  return new Promise((resolve, reject) =>
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(err ?? new Error(status));
    }),
  );
}
