import { InProcessTurnLock, type LockAttempt, type ProjectTurnLock } from '@kiln/domain';
import pg from 'pg';
import { DEFAULT_CONNECT_TIMEOUT_MS, type PostgresOptions } from './data-source.js';
import { markConnectFailure } from './database-unavailable.js';

/** How the lock's connections show in pg_stat_activity. */
export const TURN_LOCK_APPLICATION_NAME = 'kiln-turn-lock';

/** The text hashed into a project's lock key: Kiln's turns, the schema (or none) and the project. */
export const turnLockKey = (schema: string | undefined, projectId: string): string => `kiln:turn:${schema ?? ''}:${projectId}`;

const LOCK = 'SELECT pg_advisory_lock(hashtextextended($1, 0))';
const TRY_LOCK = 'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked';
const UNLOCK = 'SELECT pg_advisory_unlock(hashtextextended($1, 0))';

/**
 * ProjectTurnLock across API processes: a PostgreSQL session advisory lock per project, on a
 * 64-bit key hashed from the schema and the project id (`hashtextextended`), so two Kiln databases
 * in one server never block each other.
 *
 * Each work gets a connection of its own, opened for it and closed after it — not one of the
 * DataSource's pool: a turn holds its lock for minutes and needs pool connections for its own
 * statements meanwhile, so locks taken from the pool could starve the turns they guard. The lock
 * is released after the work whatever its outcome (an unlock, and closing the session, which
 * releases a session's advisory locks even when the unlock could not be sent).
 *
 * Within this process an InProcessTurnLock comes first: the project's works ask in order (FIFO,
 * which PostgreSQL's lock queue alone would not promise between connections) and at most one
 * connection per project waits on the database. `tryRun` asks the same way without waiting: busy
 * when this process has a work of the project running or waiting, or when another process holds
 * its lock (`pg_try_advisory_lock`). Should a lock's connection break during the
 * work, PostgreSQL releases the lock at once and another process may start the project's next
 * turn before this one ends; the work itself is not stopped.
 *
 * `close()` (the API's shutdown) closes every lock connection, as the end of the process would:
 * the locks are released even for works that have not ended, and later works are refused.
 */
export class PgAdvisoryTurnLock implements ProjectTurnLock {
  private readonly local = new InProcessTurnLock();
  private readonly open = new Set<pg.Client>();
  private closed = false;

  constructor(private readonly options: Pick<PostgresOptions, 'url' | 'schema' | 'connectTimeoutMs'>) {}

  run<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    return this.local.run(projectId, async () => {
      const attempt = await this.holding(turnLockKey(this.options.schema, projectId), work, 'wait');
      if (!attempt.ran) throw new Error('pg_advisory_lock returned without the lock');
      return attempt.value;
    });
  }

  async tryRun<T>(projectId: string, work: () => Promise<T>): Promise<LockAttempt<T>> {
    const local = await this.local.tryRun(projectId, () => this.holding(turnLockKey(this.options.schema, projectId), work, 'try'));
    return local.ran ? local.value : local;
  }

  /** Closes the lock connections (releasing their locks) and refuses any later work. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.open].map((client) => client.end().catch(() => undefined)));
  }

  /** Takes the key's lock on a connection of its own (waiting for it, or only if free), runs `work`, releases. */
  private async holding<T>(key: string, work: () => Promise<T>, mode: 'wait' | 'try'): Promise<LockAttempt<T>> {
    if (this.closed) throw new Error('PgAdvisoryTurnLock is closed: the API is shutting down');
    const client = new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      application_name: TURN_LOCK_APPLICATION_NAME,
    });
    // The connection idles (no query running) while the work runs: without a listener, its
    // 'error' event (the server went away) would end the process.
    client.on('error', () => undefined);
    this.open.add(client);
    try {
      await client.connect().catch((error: unknown) => Promise.reject(markConnectFailure(error)));
      if (mode === 'wait') await client.query(LOCK, [key]);
      else if ((await client.query<{ locked: boolean }>(TRY_LOCK, [key])).rows[0]?.locked !== true) return { ran: false };
      try {
        return { ran: true, value: await work() };
      } finally {
        // A failed unlock is not the work's failure: ending the session below releases the lock.
        await client.query(UNLOCK, [key]).catch(() => undefined);
      }
    } finally {
      this.open.delete(client);
      await client.end().catch(() => undefined);
    }
  }
}
