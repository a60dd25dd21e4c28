import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DatabaseConnection, type DatabaseLimits, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { databaseProvisionerContract } from '@kiln/domain/contracts';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { LocalPostgresProvisioner } from './local-postgres-provisioner.adapter.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const random = new SeededRandom(Date.now() % 1_000_000_007);
const newRef = () => generateDatabaseRef(random);

/** Runs `work` as the admin inside a project database (how migrations run: SET ROLE owner). */
async function asAdminIn<T>(ref: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseNames(ref).database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createTableAsOwner(ref: string, name: string): Promise<void> {
  await asAdminIn(ref, async (client) => {
    await client.query(`SET ROLE "${databaseNames(ref).owner}"`);
    await client.query(`CREATE TABLE public.${name} (id uuid PRIMARY KEY, title text NOT NULL)`);
  });
}

/** Rows as the app's users write them (the admin here: RLS is not what this tests). */
async function insertRows(ref: string, table: string, rows: readonly { id: string; title: string }[]): Promise<void> {
  await asAdminIn(ref, async (client) => {
    for (const row of rows) await client.query(`INSERT INTO public."${table}" (id, title) VALUES ($1, $2)`, [row.id, row.title]);
  });
}

databaseProvisionerContract('local PostgreSQL', async () => {
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  return { provisioner, newRef, createTable: createTableAsOwner, insertRows, close: () => provisioner.close() };
});

/** A client logged in as a project's authenticator, to `database` (default: its own). */
function authenticatorClient(c: DatabaseConnection, database = c.database): pg.Client {
  const client = new pg.Client({ host: c.host, port: c.port, user: c.user, password: c.password, database, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  return client;
}

async function connectError(client: pg.Client): Promise<string> {
  try {
    await client.connect();
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  }
  await client.end();
  return 'connected';
}

describe('LocalPostgresProvisioner: isolation between projects (real PostgreSQL)', () => {
  const limits: DatabaseLimits = { sizeMb: 50, connections: 3, statementTimeoutMs: 500 };
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const refX = newRef();
  const refY = newRef();
  let x: DatabaseConnection;
  let y: DatabaseConnection;

  beforeAll(async () => {
    x = await provisioner.provision(refX, limits);
    y = await provisioner.provision(refY, limits);
  }, 60_000);
  afterAll(async () => {
    await provisioner.drop(refX);
    await provisioner.drop(refY);
    await provisioner.close();
  }, 60_000);

  it("X's authenticator cannot connect to Y's database, to Kiln's database, to postgres or template1 (42501), only to its own", async () => {
    const kilnDatabase = new URL(adminUrl).pathname.slice(1);
    for (const database of [y.database, kilnDatabase, 'postgres', 'template1']) {
      expect([database, await connectError(authenticatorClient(x, database))]).toEqual([database, '42501']);
    }
    expect(await connectError(authenticatorClient(x))).toBe('connected');
    expect(await connectError(authenticatorClient(y, x.database))).toBe('42501');
  });

  it('refuses a connection over the limit (53300) and cancels a query past the timeout (57014)', async () => {
    const open = [authenticatorClient(x), authenticatorClient(x), authenticatorClient(x)];
    try {
      for (const client of open) await client.connect();
      expect(await connectError(authenticatorClient(x))).toBe('53300');
    } finally {
      await Promise.all(open.map((client) => client.end()));
    }
    const client = authenticatorClient(x);
    await client.connect();
    try {
      await expect(client.query('SELECT pg_sleep(3)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await client.end();
    }
  });

  it('gives the authenticator no power: not superuser, cannot create roles or databases, cannot bypass RLS, cannot become the owner', async () => {
    const { rows } = await asAdminIn(refX, (admin) =>
      admin.query<{ rolsuper: boolean; rolcreaterole: boolean; rolcreatedb: boolean; rolbypassrls: boolean; rolinherit: boolean; rolconnlimit: number }>(
        'SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolinherit, rolconnlimit FROM pg_roles WHERE rolname = $1',
        [x.user],
      ),
    );
    expect(rows[0]).toEqual({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false, rolinherit: false, rolconnlimit: 3 });
    const client = authenticatorClient(x);
    await client.connect();
    try {
      await expect(client.query('CREATE ROLE sneaky LOGIN')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('CREATE DATABASE sneaky')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query(`SET ROLE "${databaseNames(refX).owner}"`)).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('CREATE TABLE public.mine (id int)')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('SET ROLE postgres')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('SELECT * FROM kiln.schema_migrations')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
  });

  it('estimates the rows of a table never analysed: a new app with a few rows does not read "no rows yet"', async () => {
    await createTableAsOwner(refX, 'few_rows');
    await asAdminIn(refX, async (admin) => {
      await admin.query("INSERT INTO public.few_rows SELECT gen_random_uuid(), 'row ' || n FROM generate_series(1, 3) n");
      // The session's counts reach the shared statistics when it next goes idle, forced here.
      await admin.query('SELECT pg_stat_force_next_flush()');
      await admin.query('SELECT 1');
    });
    const table = (await provisioner.inspect(refX))?.tables.find((t) => t.name === 'few_rows');
    expect(table?.rowEstimate).toBe(3);
    await asAdminIn(refX, (admin) => admin.query('DROP TABLE public.few_rows'));
  });

  it('turns RLS on for a table a migration creates (SET ROLE owner); anon sees nothing of it without a policy, and policies decide rows', async () => {
    await createTableAsOwner(refX, 'todos');
    await asAdminIn(refX, async (admin) => {
      await admin.query(
        "INSERT INTO public.todos VALUES ('11111111-1111-4111-8111-111111111111', 'alice''s'), ('22222222-2222-4222-8222-222222222222', 'bob''s')",
      );
      await admin.query('CREATE TABLE public.made_by_admin (id int)');
    });
    const inspection = await provisioner.inspect(refX);
    expect(inspection?.tables.map((t) => [t.name, t.rlsEnabled])).toEqual([['made_by_admin', true], ['todos', true]]);
    const client = authenticatorClient(x);
    await client.connect();
    try {
      const asRole = async (role: 'anon' | 'authenticated', sub: string | null) => {
        await client.query('BEGIN');
        await client.query(`SET LOCAL ROLE ${role}`);
        await client.query("SELECT set_config('request.jwt.claims', $1, true)", [JSON.stringify(sub ? { role, sub } : { role })]);
        const rows = (await client.query<{ title: string }>('SELECT title FROM public.todos ORDER BY title')).rows.map((r) => r.title);
        const uid = (await client.query<{ uid: string | null; role: string | null }>('SELECT auth.uid() AS uid, auth.role() AS role')).rows[0];
        await client.query('COMMIT');
        return { rows, uid };
      };
      expect(await asRole('anon', null)).toEqual({ rows: [], uid: { uid: null, role: 'anon' } });
      expect((await asRole('authenticated', '11111111-1111-4111-8111-111111111111')).rows).toEqual([]);
      await asAdminIn(refX, (admin) =>
        admin.query("CREATE POLICY own ON public.todos FOR SELECT TO authenticated USING (id = auth.uid())"),
      );
      expect(await asRole('authenticated', '11111111-1111-4111-8111-111111111111')).toEqual({
        rows: ["alice's"],
        uid: { uid: '11111111-1111-4111-8111-111111111111', role: 'authenticated' },
      });
      expect((await asRole('anon', null)).rows).toEqual([]);
      // A later transaction that sets no claims: the setting reads as '' (not NULL) and auth.uid() is null.
      await client.query('BEGIN');
      await client.query('SET LOCAL ROLE anon');
      expect((await client.query('SELECT auth.uid() AS uid, auth.jwt() AS jwt')).rows[0]).toEqual({ uid: null, jwt: {} });
      await client.query('COMMIT');
      // Outside a request role the authenticator reaches nothing, not even the auth schema.
      await expect(client.query('SELECT auth.uid()')).rejects.toMatchObject({ code: '42501' });
      await expect(client.query('SELECT * FROM public.todos')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
  });

  it("reports Y's own tables only, and drops X's database and roles completely", async () => {
    expect((await provisioner.inspect(refY))?.tables).toEqual([]);
    const other = newRef();
    await provisioner.provision(other, limits);
    await provisioner.drop(other);
    const { rows } = await asAdminIn(refX, (admin) =>
      admin.query('SELECT (SELECT count(*) FROM pg_roles WHERE rolname LIKE $1)::int AS roles, (SELECT count(*) FROM pg_database WHERE datname = $2)::int AS dbs', [
        `kiln_app_${other}%`,
        `kiln_app_${other}`,
      ]),
    );
    expect(rows[0]).toEqual({ roles: 0, dbs: 0 });
  });

  it('brings a database made by an older Kiln (no storage schema, no setup version) up to the current setup, keeping its rows and its login', async () => {
    const old = newRef();
    const login = await provisioner.provision(old, limits);
    await asAdminIn(old, async (admin) => {
      await admin.query(`SET ROLE "kiln_app_${old}_owner"`);
      await admin.query('CREATE TABLE public.kept (id int primary key)');
      await admin.query('INSERT INTO public.kept VALUES (1)');
      await admin.query('RESET ROLE');
      // What a database of the previous release lacks.
      await admin.query('DROP SCHEMA storage CASCADE');
      await admin.query('DROP TABLE kiln.setup_version');
    });
    // A new process (a new Kiln) that has not seen this database yet.
    const newer = new LocalPostgresProvisioner({ adminUrl });
    try {
      expect(await newer.upgrade(old)).toBe(true);
      const { rows } = await asAdminIn(old, (admin) =>
        admin.query("SELECT to_regclass('storage.objects') IS NOT NULL AS storage, (SELECT count(*)::int FROM public.kept) AS kept, (SELECT count(*)::int FROM kiln.setup_version) AS versions"),
      );
      expect(rows[0]).toEqual({ storage: true, kept: 1, versions: 1 });
      // The login still works: the password was not changed.
      const client = new pg.Client({ host: login.host, port: login.port, user: login.user, password: login.password, database: login.database });
      await client.connect();
      await client.end();
      expect(await newer.upgrade(newRef())).toBe(false);
    } finally {
      await newer.close();
      await provisioner.drop(old);
    }
  });

  it('provisions several projects at once (the ACL updates do not collide)', async () => {
    const refs = [newRef(), newRef(), newRef(), newRef()];
    try {
      const made = await Promise.all(refs.map((ref) => provisioner.provision(ref, limits)));
      expect(made.map((c) => c.database)).toEqual(refs.map((ref) => `kiln_app_${ref}`));
      for (const [i, c] of made.entries()) expect(await connectError(authenticatorClient(c, made[(i + 1) % made.length]!.database))).toBe('42501');
    } finally {
      await Promise.all(refs.map((ref) => provisioner.drop(ref)));
    }
  }, 60_000);

  it('answers DatabaseServerDown when the server cannot be reached', async () => {
    const down = new LocalPostgresProvisioner({ adminUrl: 'postgres://postgres@127.0.0.1:1/test' });
    try {
      await expect(down.provision(newRef(), limits)).rejects.toMatchObject({ name: 'DatabaseServerDown' });
      await expect(down.inspect(newRef())).rejects.toMatchObject({ name: 'DatabaseServerDown' });
    } finally {
      await down.close();
    }
  });
});
