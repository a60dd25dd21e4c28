import { describe, expect, it } from '@jest/globals';
import { type FanoutMessage } from '@kiln/domain';
import { realtimeFanoutContract } from '@kiln/domain/contracts';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { PgRealtimeFanout } from './pg-realtime-fanout.js';

const url = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

// Two instances: two PgRealtimeFanouts (two LISTEN connections) on one database.
realtimeFanoutContract('PostgreSQL LISTEN/NOTIFY', async () => {
  const a = new PgRealtimeFanout({ url });
  const b = new PgRealtimeFanout({ url });
  const unreachable = new PgRealtimeFanout({ url: 'postgres://postgres@127.0.0.1:1/none' });
  return { a, b, unreachable, close: async () => (await a.close(), await b.close(), await unreachable.close()) };
});

describe('PgRealtimeFanout', () => {
  it('listens again after its LISTEN connection is killed', async () => {
    const fanout = new PgRealtimeFanout({ url });
    const other = new PgRealtimeFanout({ url });
    try {
      const got: FanoutMessage[] = [];
      let arrived: () => void = () => {};
      await fanout.subscribe((m) => {
        if (m.topic !== 'realtime:after-kill') return;
        got.push(m);
        arrived();
      });
      // Kill every LISTEN backend on the channel (the server restarted, a proxy dropped it).
      await other.publish({ project: 'aaaaaaaaaaaaaaaaaaaa', topic: 'realtime:warm', origin: 'x', body: { kind: 'presence_hello' } });
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN kiln_realtime_fanout%' AND pid <> pg_backend_pid()`);
      await admin.end();
      const message: FanoutMessage = { project: 'aaaaaaaaaaaaaaaaaaaa', topic: 'realtime:after-kill', origin: 'x', body: { kind: 'presence_hello' } };
      // Publish until the new LISTEN connection hears it.
      const heard = new Promise<void>((resolve) => (arrived = resolve));
      let done = false;
      void heard.then(() => (done = true));
      while (!done) {
        await other.publish(message);
        await Promise.race([heard, new Promise((r) => setTimeout(r, 200))]);
      }
      expect(got[0]).toEqual(message);
    } finally {
      await fanout.close();
      await other.close();
    }
  }, 30_000);
});
