import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LocalPostgresProvisioner, localSchemaMigrator } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import { GetDatabaseConnection } from '@kiln/domain';
import pg from 'pg';
import { type TestApp, newUser, setPlan, signIn, startTestApp } from '../testing/e2e.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/**
 * The whole chain on real PostgreSQL: the API provisions with LocalPostgresProvisioner, keeps the
 * sealed login in project_databases, and the data API's lookup gives a login that works — as the
 * least-privileged authenticator, under the plan's limits — and stops working after a drop.
 */
describe('database routes on the local PostgreSQL provider (e2e)', () => {
  let t: TestApp;
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const made: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ overrides: { databases: { provisioner, migrator: localSchemaMigrator(adminUrl), close: () => provisioner.close() } } });
  });
  afterAll(async () => {
    // A failed assertion leaves nothing on the shared server.
    for (const ref of made) await provisioner.drop(ref);
    await t?.close();
  });

  it('provisions a real database whose login the data API can use, checks its tables, and drops it', async () => {
    const user = newUser();
    await signIn(t, user);
    await setPlan(t, user.id, 'free');
    const id = ((await t.http().post('/api/projects').set(user.auth).send({ name: 'Real' }).expect(201)).body as { id: string }).id;
    const provisioned = await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200);
    const { ref } = provisioned.body as { ref: string };
    made.push(ref);
    const facts = await t.app.get(GetDatabaseConnection, { strict: false }).byRef(ref);
    if (!facts.ok) throw new Error(facts.error.code);
    const { connection } = facts.value;
    expect(connection).toMatchObject({ database: `kiln_app_${ref}`, user: `kiln_app_${ref}_authenticator`, ssl: false });
    const client = new pg.Client({ host: connection.host, port: connection.port, user: connection.user, password: connection.password, database: connection.database });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT rolconnlimit, rolbypassrls FROM pg_roles WHERE rolname = current_user');
      expect(rows[0]).toEqual({ rolconnlimit: t.config.databases.limits.free.connections, rolbypassrls: false });
      const { rows: timeout } = await client.query("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'");
      expect(Number(timeout[0].setting)).toBe(t.config.databases.limits.free.statementTimeoutMs);
    } finally {
      await client.end();
    }
    const admin = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/kiln_app_${ref}`) });
    await admin.connect();
    try {
      await admin.query(`SET ROLE "kiln_app_${ref}_owner"`);
      await admin.query('CREATE TABLE public.todos (id uuid PRIMARY KEY, title text NOT NULL)');
    } finally {
      await admin.end();
    }
    const check = (await t.http().get(`/api/db/check/${id}`).set(user.auth).expect(200)).body;
    expect(check).toMatchObject({ connected: true, ref, over_quota: false });
    expect(check.tables).toEqual([
      { schema: 'public', name: 'todos', rls_enabled: true, row_estimate: 0, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'title', type: 'text', nullable: false }] },
    ]);
    // The project's data (its tables and indexes), not the ~7.5 MB of catalog every database has.
    expect(check.size_bytes).toBeGreaterThan(0);
    expect(check.size_bytes).toBeLessThan(1_000_000);
    await t.http().delete(`/database/${id}?deleteFromProvider=true`).set(user.auth).expect(200);
    expect((await t.http().get(`/api/db/check/${id}`).set(user.auth)).body.connected).toBe(false);
    expect(await provisioner.inspect(ref)).toBeNull();
  }, 60_000);

  it('migrates through the route as the owner, gives user_id tables owner policies, and refuses to publish a table with RLS off', async () => {
    const user = newUser();
    await signIn(t, user);
    await setPlan(t, user.id, 'pro_monthly');
    const id = ((await t.http().post('/api/projects').set(user.auth).send({ name: 'Real migrations' }).expect(201)).body as { id: string }).id;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).send({}).expect((r) => expect(r.status).toBeLessThan(300));
    const { ref } = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200)).body as { ref: string };
    made.push(ref);
    const write = (path: string, content: string) => t.http().post(`/api/sandbox/${id}/write-file`).set(user.auth).send({ path, content }).expect(200);
    await write('supabase/migrations/001_todos.sql', 'create table todos (id bigint generated always as identity primary key, user_id uuid not null, title text not null);\n');
    const applied = await t.http().post(`/api/db/migrate/${id}`).set(user.auth).expect(200);
    expect(applied.body).toMatchObject({ folder: 'supabase/migrations', applied: ['001_todos.sql'], kept: [] });

    await write('supabase/migrations/002_bad.sql', 'create table other (id int);\n\nselect * from nowhere;\n');
    const failed = await t.http().post(`/api/db/migrate/${id}`).set(user.auth).expect(422);
    expect(failed.body).toMatchObject({ code: 'DATABASES.MIGRATION_FAILED', file: 'supabase/migrations/002_bad.sql', line: 3 });
    expect(failed.body.detail).toContain('relation "nowhere" does not exist');

    await write('supabase/migrations/002_bad.sql', 'alter table todos disable row level security;\n');
    await t.http().post(`/api/db/migrate/${id}`).set(user.auth).expect(200);
    const check = (await t.http().get(`/api/db/check/${id}`).set(user.auth).expect(200)).body as { tables: Array<{ name: string; rls_enabled: boolean }> };
    expect(check.tables.map((x) => [x.name, x.rls_enabled])).toEqual([['todos', false]]);
    const refused = await t.http().post('/api/fly/create-project').set(user.auth).send({ project_id: id, publish: true });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'HOSTING.DATABASE_UNSAFE', tables: ['todos'] });

    const admin = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/kiln_app_${ref}`) });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ cmd: string }>(`SELECT cmd FROM pg_policies WHERE tablename = 'todos' ORDER BY cmd`);
      expect(rows.map((r) => r.cmd)).toEqual(['DELETE', 'INSERT', 'SELECT', 'UPDATE']);
    } finally {
      await admin.end();
    }
  });
});
