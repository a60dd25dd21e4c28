import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { connect, createServer } from 'node:net';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source.js';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { startDatabaseRelay } from './testing/database-relay.js';
import { DEFAULT_TEST_DATABASE_URL } from './testing/test-database.js';

jest.setTimeout(30_000);

const databaseUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/** The error a promise rejects with (fails the test if it resolves). */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('isDatabaseUnavailable (real pg and TypeORM errors)', () => {
  const open: DataSource[] = [];
  const dataSource = async (url: string, options: { poolSize?: number; connectTimeoutMs?: number } = {}) => {
    const ds = createDataSource({ url, ...options });
    open.push(ds);
    await ds.initialize();
    return ds;
  };
  afterAll(async () => {
    await Promise.all(open.filter((ds) => ds.isInitialized).map((ds) => ds.destroy().catch(() => undefined)));
  });

  it('a server that is not there (connection refused)', async () => {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(await closedPort());
    const ds = createDataSource({ url: url.toString() });
    const error = await failureOf(ds.initialize());
    expect(error).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('an outage under a running app: the query in flight, then every new one', async () => {
    const relay = await startDatabaseRelay(databaseUrl);
    const ds = await dataSource(relay.url);
    expect(await ds.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    const inFlight = failureOf(ds.query('SELECT pg_sleep(5)'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    relay.cut();
    const lost = await inFlight;
    expect(String((lost as Error).message)).toMatch(/Connection terminated/);
    expect(isDatabaseUnavailable(lost)).toBe(true);
    for (const work of [() => ds.query('SELECT 1'), () => ds.transaction((manager) => manager.query('SELECT 1')), () => ds.createQueryRunner().connect()]) {
      const error = await failureOf(work());
      expect(error).toMatchObject({ code: 'ECONNREFUSED' });
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it("the server ending the app's sessions (57P01, as in a shutdown)", async () => {
    const ds = await dataSource(databaseUrl);
    const marker = `kiln-terminate-${process.pid}-${Date.now()}`;
    const inFlight = failureOf(ds.query(`SELECT pg_sleep(5), '${marker}'`));
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      for (let tries = 0; tries < 50; tries += 1) {
        const { rowCount } = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()', [`%${marker}%`]);
        if (rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await admin.end();
    }
    const error = await inFlight;
    expect(error).toMatchObject({ driverError: { code: '57P01' } });
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('no connection within the connect timeout: a server that never answers, or a pool with none free', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String((silent.address() as { port: number }).port);
      const error = await failureOf(createDataSource({ url: url.toString(), connectTimeoutMs: 300 }).initialize());
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      silent.close();
    }

    const ds = await dataSource(databaseUrl, { poolSize: 1, connectTimeoutMs: 300 });
    const holder = ds.createQueryRunner();
    await holder.connect();
    try {
      const error = await failureOf(ds.query('SELECT 1'));
      expect(String((error as Error).message)).toMatch(/timeout exceeded when trying to connect/);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await holder.release();
    }
  });

  it('is false for a wrong query, a broken rule, and a refused connection that is not the database', async () => {
    const ds = await dataSource(databaseUrl);
    const syntax = await failureOf(ds.query('SELEC 1'));
    expect(syntax).toMatchObject({ driverError: { code: '42601' } });
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    const division = await failureOf(ds.query('SELECT 1 / 0'));
    expect(isDatabaseUnavailable(division)).toBe(false);
    const elsewhere = await failureOf(
      new Promise((_resolve, reject) => {
        void closedPort().then((port) => connect(port, '127.0.0.1').once('error', reject));
      }),
    );
    expect(elsewhere).toMatchObject({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(elsewhere)).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom', { cause: elsewhere }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: syntax }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
  });
});
