import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DataApiQuota, databaseQuotaExceeded, databaseServerUnavailable, err, ok } from '@kiln/domain';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ADMIN_URL, type TestProject, createTestProject, localFetch, serveDataApi, sign } from './testing/data-api-test-project.js';

const MB = 1024 * 1024;

/**
 * The data API's limits on real PostgreSQL (docs/databases.md "Limits"): past the size quota no
 * insert, update or upsert (402 in PostgREST's shape), an rpc runs read-only (a reading function
 * still answers, a writing one is 402 — even one that tries to turn its transaction read-write),
 * reads and deletes go on; no free connection under the role's CONNECTION LIMIT is a 503 with
 * Retry-After, not a 500.
 */
describe('data API limits', () => {
  let project: TestProject;
  let served: Awaited<ReturnType<typeof serveDataApi>>;
  let anon: string;
  let alice: string;
  const aliceId = randomUUID();
  let quota: 'under' | 'over' | 'down' = 'under';
  const asked: string[] = [];
  const guard: DataApiQuota = {
    checkWrite: async (database) => {
      asked.push(database.ownerId);
      if (quota === 'over') return err(databaseQuotaExceeded(2 * MB, 1 * MB));
      if (quota === 'down') return err(databaseServerUnavailable());
      return ok(undefined);
    },
  };

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    localFetch(`${served.urlOf(project.target.ref)}/rest/v1/${path}`, {
      method,
      headers: { apikey: anon, Authorization: `Bearer ${alice}`, 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const count = async () => (await project.admin.query<{ n: number }>('select count(*)::int as n from todos')).rows[0]!.n;

  beforeAll(async () => {
    project = await createTestProject();
    served = await serveDataApi([project.target], { quota: guard });
    anon = await sign(project.target.jwtSecret, { role: 'anon', ref: project.target.ref }, null);
    alice = await sign(project.target.jwtSecret, { role: 'authenticated', sub: aliceId, ref: project.target.ref });
    await project.admin.query('insert into profiles (id, name) values ($1, $2)', [aliceId, 'Alice']);
    await project.admin.query(`insert into todos (title, user_id) values ('one', $1), ('two', $1)`, [aliceId]);
    // A function that tries to undo READ ONLY before writing.
    const owner = `kiln_app_${project.target.ref}_owner`;
    await project.admin.query(`set role ${owner};
      create function sneaky_write() returns void language plpgsql as $$ begin set transaction read write; insert into todos (title) values ('sneaky'); end $$;
      create function sneaky_config() returns void language sql set transaction_read_only = off as $$ insert into todos (title) values ('sneaky') $$;
      reset role`);
  });
  afterAll(async () => {
    await served?.close();
    await project?.drop();
  });

  it('writes while under the quota, asking with the project’s owner', async () => {
    quota = 'under';
    expect((await call('POST', 'todos', { title: 'three' })).status).toBe(201);
    expect(asked.at(-1)).toBe(project.target.ownerId);
    expect((await call('DELETE', 'todos?title=eq.three')).status).toBe(204);
  });

  it('refuses insert, update and upsert past the quota with 402 in PostgREST’s shape, changing nothing', async () => {
    quota = 'over';
    const before = await count();
    const writes: Array<[string, string, unknown, Record<string, string>?]> = [
      ['POST', 'todos', { title: 'x' }],
      ['POST', 'todos', [{ title: 'x' }, { title: 'y' }]],
      ['PATCH', 'todos?title=eq.one', { done: true }],
      ['POST', 'todos?on_conflict=id', { id: 1, title: 'x' }, { Prefer: 'resolution=merge-duplicates' }],
      ['POST', 'rpc/update_many_records', { table_name: 'todos', records: [{ id: 1, title: 'x' }] }],
      ['POST', 'rpc/sneaky_write', {}],
      ['POST', 'rpc/sneaky_config', {}],
    ];
    for (const [method, path, body, headers] of writes) {
      const res = await call(method, path, body, headers);
      expect([method, path, res.status]).toEqual([method, path, 402]);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        code: 'DATABASES.QUOTA_EXCEEDED',
        message: 'This project’s database uses 2 MB of its 1 MB. Delete data or upgrade your plan to write more.',
        details: `size_bytes=${2 * MB} quota_bytes=${MB}`,
        hint: 'Reads and deletes are still allowed: delete rows to get back under the quota.',
      });
    }
    expect(await count()).toBe(before);
    expect((await project.admin.query(`select count(*)::int as n from todos where done or title <> all ('{one,two}')`)).rows[0].n).toBe(0);
  });

  it('still reads, counts, runs reading functions and deletes past the quota', async () => {
    quota = 'over';
    const read = await call('GET', 'todos?select=title&order=title');
    expect([read.status, await read.json()]).toEqual([200, [{ title: 'one' }, { title: 'two' }]]);
    const sum = await call('POST', 'rpc/add_numbers', { a: 2, b: 3 });
    expect([sum.status, await sum.json()]).toEqual([200, 5]);
    expect((await call('GET', 'rpc/open_todos')).status).toBe(200);
    expect((await call('DELETE', 'todos?title=eq.two')).status).toBe(204);
    expect(await count()).toBe(1);
  });

  it('answers 503 with Retry-After when the quota cannot be measured', async () => {
    quota = 'down';
    const res = await call('POST', 'todos', { title: 'x' });
    expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5']);
    expect(await res.json()).toMatchObject({ code: 'PGRST000' });
    expect((await call('GET', 'todos')).status).toBe(200); // reads never ask
    quota = 'under';
  });

  it('answers 503 with Retry-After, not 500, when the role’s CONNECTION LIMIT is reached', async () => {
    const server = new pg.Client({ connectionString: ADMIN_URL });
    await server.connect();
    const { connection } = project.target;
    const holder = new pg.Client({ ...connection });
    try {
      await server.query(`alter role ${connection.user} connection limit 1`);
      // A data API that has no connection yet (its pool is new), and the only one allowed taken.
      await served.api.forget(project.target.ref);
      await holder.connect();
      const res = await call('GET', 'todos');
      expect([res.status, res.headers.get('retry-after')]).toEqual([503, '5']);
      expect(await res.json()).toEqual({
        code: 'PGRST000',
        message: 'The project database has no free connection: its plan’s connection limit is reached',
        details: null,
        hint: 'Try again in a moment.',
      });
      await holder.end();
      // The server counts a login until its backend has exited, a moment after the client left.
      while ((await server.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where usename = $1', [connection.user])).rows[0]!.n > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await call('GET', 'todos')).status).toBe(200);
    } finally {
      await holder.end().catch(() => undefined);
      await server.query(`alter role ${connection.user} connection limit 5`);
      await server.end();
    }
  });
});
