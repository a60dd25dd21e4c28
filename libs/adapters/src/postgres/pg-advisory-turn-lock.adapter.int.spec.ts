import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { projectTurnLockContract } from '@kiln/domain/contracts';
import pg from 'pg';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { PgAdvisoryTurnLock, turnLockKey } from './pg-advisory-turn-lock.adapter.js';
import { DEFAULT_TEST_DATABASE_URL } from './testing/test-database.js';

const url = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
/** Keys of their own: no other suite on this server uses this schema name (nothing is created). */
const newSchema = () => `test_${randomBytes(8).toString('hex')}`;

projectTurnLockContract('PgAdvisoryTurnLock', async () => ({ lock: new PgAdvisoryTurnLock({ url, schema: newSchema() }) }));

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PgAdvisoryTurnLock', () => {
  const schema = newSchema();
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
  });

  /** The backend holding the project's advisory lock, or null. */
  const holder = async (projectId: string): Promise<number | null> => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, 0)`,
      [turnLockKey(schema, projectId)],
    );
    return rows[0]?.pid ?? null;
  };

  it('holds the lock on a connection of its own during the work, and closes it after', async () => {
    const lock = new PgAdvisoryTurnLock({ url, schema });
    let during: { pid: number | null; application: string | undefined } | null = null;
    await lock.run('p-held', async () => {
      const pid = await holder('p-held');
      const { rows } = await admin.query<{ application_name: string }>('SELECT application_name FROM pg_stat_activity WHERE pid = $1', [pid]);
      during = { pid, application: rows[0]?.application_name };
    });
    expect(during).toEqual({ pid: expect.any(Number), application: 'kiln-turn-lock' });
    expect(await holder('p-held')).toBeNull();
    const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [during!.pid]);
    expect(rows).toEqual([]);
  });

  it('keeps another API process out of the project until the work ends, not out of other projects', async () => {
    const [one, two] = [new PgAdvisoryTurnLock({ url, schema }), new PgAdvisoryTurnLock({ url, schema })];
    const started = deferred();
    const release = deferred();
    const log: string[] = [];
    const first = one.run('p-shared', async () => {
      log.push('one start');
      started.resolve();
      await release.promise;
      log.push('one end');
    });
    await started.promise;
    const second = two.run('p-shared', async () => void log.push('two'));
    try {
      await two.run('p-other', async () => void log.push('two, other project'));
      await sleep(300);
      expect(log).toEqual(['one start', 'two, other project']);
    } finally {
      release.resolve();
      await Promise.all([first, second]);
    }
    expect(log).toEqual(['one start', 'two, other project', 'one end', 'two']);
  });

  it('tryRun is busy while another API process holds the project, without running or waiting; free projects and a later try run', async () => {
    const [one, two] = [new PgAdvisoryTurnLock({ url, schema }), new PgAdvisoryTurnLock({ url, schema })];
    const started = deferred();
    const release = deferred();
    let ran = false;
    const first = one.run('p-try', async () => {
      started.resolve();
      await release.promise;
    });
    await started.promise;
    try {
      await expect(two.tryRun('p-try', async () => void (ran = true))).resolves.toEqual({ ran: false });
      expect(ran).toBe(false);
      await expect(two.tryRun('p-try-other', async () => 'other')).resolves.toEqual({ ran: true, value: 'other' });
    } finally {
      release.resolve();
      await first;
    }
    let during: number | null = null;
    await expect(two.tryRun('p-try', async () => (during = await holder('p-try')))).resolves.toEqual({ ran: true, value: expect.any(Number) });
    expect(during).not.toBeNull();
    expect(await holder('p-try')).toBeNull();
  });

  it('releases the lock when a work fails', async () => {
    const lock = new PgAdvisoryTurnLock({ url, schema });
    await expect(lock.run('p-fails', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await holder('p-fails')).toBeNull();
    await expect(new PgAdvisoryTurnLock({ url, schema }).run('p-fails', async () => 'next')).resolves.toBe('next');
  });

  it('loses the lock with its connection: the work still ends normally, the project is free', async () => {
    const lock = new PgAdvisoryTurnLock({ url, schema });
    const result = await lock.run('p-cut', async () => {
      const pid = await holder('p-cut');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      for (let i = 0; i < 50 && (await holder('p-cut')) !== null; i += 1) await sleep(20);
      expect(await holder('p-cut')).toBeNull();
      return 'done';
    });
    expect(result).toBe('done');
    await expect(new PgAdvisoryTurnLock({ url, schema }).run('p-cut', async () => 'next')).resolves.toBe('next');
  });

  it('closing (the API shutting down) releases the locks of works still running, as the end of the process would, and refuses new works', async () => {
    const lock = new PgAdvisoryTurnLock({ url, schema });
    const started = deferred();
    void lock.run('p-closed', async () => {
      started.resolve();
      await new Promise<never>(() => undefined);
    });
    await started.promise;
    expect(await holder('p-closed')).not.toBeNull();
    await lock.close();
    await expect(new PgAdvisoryTurnLock({ url, schema }).run('p-closed', async () => 'next process')).resolves.toBe('next process');
    await expect(lock.run('p-other', async () => 'late')).rejects.toThrow(/closed/);
  });

  it('does not run the work when PostgreSQL cannot be reached, and says the database is unavailable', async () => {
    const unreachable = new URL(url);
    unreachable.port = '1';
    const lock = new PgAdvisoryTurnLock({ url: unreachable.toString(), schema, connectTimeoutMs: 2_000 });
    let ran = false;
    const error = await lock.run('p-down', async () => void (ran = true)).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ran).toBe(false);
  });
});
