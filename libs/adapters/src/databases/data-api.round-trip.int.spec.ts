import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataApiTarget } from '@kiln/domain';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { DataApiPools } from './data-api-pools.js';
import { setupSql } from './pg-data-api.js';
import { type TestProject, createTestProject, localFetch, serveDataApi, sign } from './testing/data-api-test-project.js';

// Claims no string concatenation would survive: quotes, backslashes, SQL, unicode, controls.
const hostile = {
  role: 'authenticated',
  sub: randomUUID(),
  name: `O'Brien '' \\' "quoted" $$dollar$$ E'\\x41'; DROP TABLE todos; --`,
  path: 'C:\\temp\\new\\table \\\\server',
  text: 'ünïcødé 中文 🦊 \u2028\u2029 \t\n\r',
  nested: { list: ["a'b", 'c\\d', null, 1.5, true], empty: '' },
};

/**
 * The data API's transaction: its set-up is one simple query (role, timeout, claims as an escaped
 * literal), a table read is READ ONLY, and what it keeps per project (the lookup, the pool) is
 * dropped when the database is detached, deleted or its password rotated.
 */
describe('data API round trips and cached lookups', () => {
  let project: TestProject;
  let ref: string;

  const get = (url: string, key: string, bearer = key) => localFetch(url, { headers: { apikey: key, Authorization: `Bearer ${bearer}` } });

  beforeAll(async () => {
    project = await createTestProject();
    ref = project.target.ref;
    const owner = `kiln_app_${ref}_owner`;
    await project.admin.query(`set role ${owner}`);
    // What the transaction looks like from inside: a view read (GET) and a function call (rpc).
    await project.admin.query(`create view tx_state as select current_setting('transaction_read_only') as read_only, current_user::text as who, current_setting('request.jwt.claims', true) as claims`);
    await project.admin.query(
      `create function tx_state_fn() returns jsonb language sql as $$ select jsonb_build_object('read_only', current_setting('transaction_read_only'), 'who', current_user, 'claims', current_setting('request.jwt.claims', true)) $$`,
    );
    // A call that leaves a trace whatever the caller's role (SECURITY DEFINER), to see whether it ran.
    await project.admin.query('create table calls (at timestamptz not null default now())');
    await project.admin.query('create function record_call() returns int language sql security definer as $$ insert into calls default values returning 1 $$');
    await project.admin.query('reset role');
    await project.admin.query('grant select on tx_state to anon, authenticated');
  });

  afterAll(async () => {
    await project?.drop();
  });

  describe('setupSql on the authenticator’s own connection', () => {
    let client: pg.Client;
    beforeAll(async () => {
      client = new pg.Client(project.target.connection);
      await client.connect();
    });
    afterAll(async () => {
      await client?.end();
    });

    for (const conforming of ['on', 'off']) {
      it(`sets role, timeout and claims intact in one query (standard_conforming_strings ${conforming})`, async () => {
        await client.query(`SET standard_conforming_strings = ${conforming}`);
        const results = (await client.query(setupSql(client, 'authenticated', hostile, 1234, true))) as unknown as pg.QueryResult[];
        expect(results.map((r) => r.command)).toEqual(['BEGIN', 'SET', 'SET', 'SELECT']);
        const { rows } = await client.query(
          "SELECT current_user AS who, current_setting('request.jwt.claims', true) AS claims, current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout",
        );
        expect(JSON.parse(rows[0].claims)).toEqual(hostile);
        expect(rows[0]).toMatchObject({ who: 'authenticated', ro: 'on', timeout: '1234ms' });
        await client.query('ROLLBACK');
        // SET LOCAL ended with the transaction: back to the authenticator, no claims.
        const after = await client.query("SELECT current_user AS who, coalesce(current_setting('request.jwt.claims', true), '') AS claims");
        expect(after.rows[0]).toEqual({ who: project.target.connection.user, claims: '' });
      });
    }

    it('keeps the claims intact under a client encoding a project function may have set (SJIS)', async () => {
      // 'Á' is C3 81 in UTF-8; read as SJIS, 81 swallows the backslash after it (PostgreSQL then
      // refuses the \' left over, 22P06, rather than be fooled; an ASCII literal never gets there).
      const tricky = { role: 'anon', name: "Á\\' ; select 1; --", more: 'ｱ\\\\x' };
      const sql = setupSql(client, 'anon', tricky, 100, false);
      expect(sql).toMatch(/^[\x20-\x7e]*$/);
      await client.query("SET client_encoding = 'SJIS'");
      try {
        await client.query(sql);
        const { rows } = await client.query("SELECT current_setting('request.jwt.claims', true) AS claims, current_user AS who");
        expect(JSON.parse(rows[0].claims)).toEqual(tricky);
        expect(rows[0].who).toBe('anon');
        await client.query('ROLLBACK');
      } finally {
        await client.query("SET client_encoding = 'UTF8'");
      }
    });

    it('only ever names anon or authenticated, and a read-write transaction for anything but a read', async () => {
      const forged = setupSql(client, 'postgres' as never, {}, 10, false);
      expect(forged).toMatch(/^BEGIN; SET LOCAL ROLE anon; SET LOCAL statement_timeout = 10; /);
      await client.query(setupSql(client, 'anon', { role: 'anon' }, 10.7, false));
      const { rows } = await client.query("SELECT current_user AS who, current_setting('transaction_read_only') AS ro, current_setting('statement_timeout') AS timeout");
      expect(rows[0]).toEqual({ who: 'anon', ro: 'off', timeout: '10ms' });
      await client.query('ROLLBACK');
    });
  });

  describe('over HTTP', () => {
    let served: Awaited<ReturnType<typeof serveDataApi>>;
    let anonKey: string;
    let userKey: string;
    beforeAll(async () => {
      served = await serveDataApi([project.target]);
      anonKey = await sign(project.target.jwtSecret, { role: 'anon', ref, iss: 'kiln' }, null);
      userKey = await sign(project.target.jwtSecret, { ...hostile, ref });
    });
    afterAll(async () => {
      await served?.close();
    });

    it('a table read runs READ ONLY with the caller’s role and claims, again from the cached key', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=*`, anonKey, userKey);
        expect(res.status).toBe(200);
        const [row] = (await res.json()) as { read_only: string; who: string; claims: string }[];
        expect(row).toMatchObject({ read_only: 'on', who: 'authenticated' });
        expect(JSON.parse(row!.claims)).toMatchObject({ ...hostile, ref });
      }
      const anon = await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey);
      expect(await anon.json()).toEqual([{ who: 'anon' }]);
    });

    it('an rpc call is read-write (its COMMIT is awaited)', async () => {
      const res = await localFetch(`${served.urlOf(ref)}/rest/v1/rpc/tx_state_fn`, {
        method: 'POST',
        headers: { apikey: anonKey, Authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const body = (await res.json()) as { read_only: string; who: string; claims: string };
      expect(body).toMatchObject({ read_only: 'off', who: 'authenticated' });
      expect(JSON.parse(body.claims)).toMatchObject(hostile);
    });

    it('the same rpc by GET runs READ ONLY, so a function that writes is refused there (PostgREST’s 405)', async () => {
      const headers = { apikey: anonKey, Authorization: `Bearer ${userKey}` };
      const read = await localFetch(`${served.urlOf(ref)}/rest/v1/rpc/tx_state_fn`, { headers });
      expect(((await read.json()) as { read_only: string }).read_only).toBe('on');
      const before = await project.admin.query('select count(*)::int as n from calls');
      const write = await localFetch(`${served.urlOf(ref)}/rest/v1/rpc/record_call`, { headers });
      expect(write.status).toBe(405);
      expect(((await write.json()) as { code: string }).code).toBe('25006');
      expect((await project.admin.query('select count(*)::int as n from calls')).rows).toEqual(before.rows);
    });
  });

  describe('the pipelined transaction', () => {
    it('never runs the statement when its set-up fails, and leaves the connection clean', async () => {
      const served = await serveDataApi([{ ...project.target, maxConnections: 1 }]);
      const user = project.target.connection.user;
      try {
        const anonKey = await sign(project.target.jwtSecret, { role: 'anon', ref }, null);
        const call = () => localFetch(`${served.urlOf(ref)}/rest/v1/rpc/record_call`, { method: 'POST', headers: { apikey: anonKey, 'content-type': 'application/json' }, body: '{}' });
        expect((await call()).status).toBe(200);
        // SET LOCAL ROLE anon now fails (42501): the statement written behind it must not run.
        await project.admin.query(`revoke anon from ${user}`);
        const refused = await call();
        expect(refused.status).toBeGreaterThanOrEqual(400);
        expect(((await refused.json()) as { code: string }).code).toBe('42501');
        await project.admin.query(`grant anon to ${user}`);
        // A read whose statement fails (22P02) ends its transaction too; the one connection goes on.
        expect((await get(`${served.urlOf(ref)}/rest/v1/todos?id=eq.notanumber`, anonKey)).status).toBe(400);
        expect((await call()).status).toBe(200);
        const { rows } = await project.admin.query('select count(*)::int as n from calls');
        expect(rows[0].n).toBe(2);
      } finally {
        await project.admin.query(`grant anon to ${user}`);
        await served.close();
      }
    });
  });

  describe('cached lookups and pools', () => {
    /** A lookup the test changes, as detaching, deleting and reprovisioning change Kiln's record. */
    const lookup = (initial: DataApiTarget | null) => {
      const l = { current: initial, findByRef: async (r: string) => (l.current?.ref === r ? l.current : null) };
      return l;
    };

    it('a detached or deleted database stops answering at once when forgotten, and its pool ends', async () => {
      const targets = lookup(project.target);
      const served = await serveDataApi(targets);
      try {
        const anonKey = await sign(project.target.jwtSecret, { role: 'anon', ref }, null);
        expect((await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey)).status).toBe(200);
        expect(served.api.knows(ref)).toBe(true);
        targets.current = null;
        // Within the cache's second the old answer stands; forget (what detach/delete call) ends it.
        expect((await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey)).status).toBe(200);
        await served.server.forget(ref);
        const gone = await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey);
        expect(gone.status).toBe(404);
        expect(((await gone.json()) as { code: string }).code).toBe('PGRST125');
        expect(served.api.knows(ref)).toBe(false);
      } finally {
        await served.close();
      }
    });

    it('a lookup that turns null drops the pool without forget once the cache has expired', async () => {
      const targets = lookup(project.target);
      const served = await serveDataApi(targets, { targetCacheMs: 0 });
      try {
        const anonKey = await sign(project.target.jwtSecret, { role: 'anon', ref }, null);
        expect((await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey)).status).toBe(200);
        targets.current = null;
        expect((await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey)).status).toBe(404);
        expect(served.api.knows(ref)).toBe(false);
      } finally {
        await served.close();
      }
    });

    it('a reprovisioned database (new password) answers with the new login once forgotten', async () => {
      const targets = lookup(project.target);
      const served = await serveDataApi(targets);
      const user = project.target.connection.user;
      const password = `rotated-${randomUUID()}`;
      try {
        const anonKey = await sign(project.target.jwtSecret, { role: 'anon', ref }, null);
        expect((await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey)).status).toBe(200);
        // The provisioner sets a new password; the old sessions end (as a drop or restart would end them).
        // (On a server with password authentication the old login would now fail; see DataApiPools below.)
        await project.admin.query(`alter role ${user} password '${password}'`);
        await project.admin.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [user]);
        targets.current = { ...project.target, connection: { ...project.target.connection, password } };
        await served.server.forget(ref);
        const res = await get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual([{ who: 'anon' }]);
      } finally {
        await served.close();
        await project.admin.query(`alter role ${user} password '${project.target.connection.password}'`);
      }
    });

    it('opens a new pool for a new password (ending the old one), and keeps it for the same login', async () => {
      const pools = new DataApiPools();
      try {
        const first = await pools.get(project.target);
        expect(await pools.get({ ...project.target })).toBe(first);
        const rotated = await pools.get({ ...project.target, connection: { ...project.target.connection, password: 'rotated' } });
        expect(rotated).not.toBe(first);
        expect(rotated.options.password).toBe('rotated');
        expect(first.ending).toBe(true);
        expect(rotated.ending).toBe(false);
      } finally {
        await pools.close();
      }
    });

    it('reaches a database marked ssl (Neon) only over TLS with a verified certificate', async () => {
      const pools = new DataApiPools();
      try {
        // The test server offers no TLS, or a self-signed certificate: either way, no plain fallback.
        const tls = pools.get({ ...project.target, connection: { ...project.target.connection, ssl: true } });
        await expect(tls).rejects.toThrow(/SSL|certificate/i);
        const plain = await pools.get({ ...project.target, connection: { ...project.target.connection, ssl: false } });
        expect(plain.options.ssl).toBe(false);
      } finally {
        await pools.close();
      }
    });

    it('keeps the pool within the role’s CONNECTION LIMIT less one, whatever the plan says', async () => {
      // The test role's limit is 5; the target asks for 9 (a plan upgraded after provisioning).
      const served = await serveDataApi([{ ...project.target, maxConnections: 9 }]);
      try {
        const anonKey = await sign(project.target.jwtSecret, { role: 'anon', ref }, null);
        const answers = await Promise.all(Array.from({ length: 24 }, () => get(`${served.urlOf(ref)}/rest/v1/tx_state?select=who`, anonKey)));
        expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
        const { rows } = await project.admin.query('select count(*)::int as n from pg_stat_activity where usename = $1', [project.target.connection.user]);
        expect(rows[0].n).toBeLessThanOrEqual(4);
        expect(rows[0].n).toBeGreaterThanOrEqual(1);
      } finally {
        await served.close();
      }
    });
  });
});
