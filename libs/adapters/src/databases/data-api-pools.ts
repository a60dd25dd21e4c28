import type { DataApiTarget } from '@kiln/domain';
import pg from 'pg';
import { ConnectionFailureMarkingPool, markConnectFailure } from '../postgres/database-unavailable.js';

interface PoolEntry {
  /** What the pool was opened with: another login (a rotated password) or size opens a new pool. */
  readonly key: string;
  readonly pool: Promise<pg.Pool>;
}

/**
 * One pool of the authenticator role per project database. Its size is the target's
 * (`maxConnections`: the project's plan limit less one), never more than the role's own
 * `CONNECTION LIMIT` less one — a role provisioned under a smaller plan would refuse the rest
 * (53300) — so it is read once, as the role, when the pool opens.
 */
export class DataApiPools {
  private readonly pools = new Map<string, PoolEntry>();

  /** The pool of a target; a target whose login or size changed gets a new one (the old one ends). */
  get(target: DataApiTarget): Promise<pg.Pool> {
    const key = poolKey(target);
    const entry = this.pools.get(target.ref);
    if (entry?.key === key) return entry.pool;
    if (entry !== undefined) void this.forget(target.ref);
    const fresh: PoolEntry = { key, pool: openPool(target) };
    this.pools.set(target.ref, fresh);
    // A failed open (server down, wrong password) is not kept: the next request tries again.
    fresh.pool.catch(() => {
      if (this.pools.get(target.ref) === fresh) this.pools.delete(target.ref);
    });
    return fresh.pool;
  }

  has(ref: string): boolean {
    return this.pools.has(ref);
  }

  /** Ends a project's pool (its database was detached or deleted, or its password rotated). */
  async forget(ref: string): Promise<void> {
    const entry = this.pools.get(ref);
    if (entry === undefined) return;
    this.pools.delete(ref);
    // end() waits for the connections in use: their requests finish on the old login.
    await entry.pool.then((pool) => pool.end()).catch(() => {});
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((ref) => this.forget(ref)));
  }
}

function poolKey(target: DataApiTarget): string {
  const c = target.connection;
  return JSON.stringify([c.host, c.port, c.database, c.user, c.password, c.ssl === true, target.maxConnections]);
}

/** pg's options for a target: a Neon database is reached over TLS, its certificate verified. */
function connectionOf(target: DataApiTarget): pg.ClientConfig {
  const { ssl, ...login } = target.connection;
  return { ...login, ssl: ssl === true };
}

async function openPool(target: DataApiTarget): Promise<pg.Pool> {
  const limit = await roleConnectionLimit(target);
  // -1 is "no limit"; else keep one connection of the role free, as for the plan's limit.
  const max = Math.max(1, limit < 0 ? target.maxConnections : Math.min(target.maxConnections, limit - 1));
  // pipeline: a request's queries are written together and answered in one round trip (PgDataApi).
  const config = { ...connectionOf(target), max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000, pipeline: true };
  const pool = new ConnectionFailureMarkingPool(config as pg.PoolConfig);
  pool.on('error', () => {}); // an idle client's socket closed: the pool replaces it
  // A client in use (or just released) whose server session ends emits 'error' after its query
  // failed: the query's rejection already answered the request; the event must not crash Kiln.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

async function roleConnectionLimit(target: DataApiTarget): Promise<number> {
  const client = new pg.Client({ ...connectionOf(target), connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect().catch((error: unknown) => Promise.reject(markConnectFailure(error)));
    const { rows } = await client.query<{ limit: number }>('SELECT rolconnlimit AS limit FROM pg_roles WHERE rolname = current_user');
    return rows[0]?.limit ?? 1;
  } finally {
    await client.end().catch(() => {});
  }
}
