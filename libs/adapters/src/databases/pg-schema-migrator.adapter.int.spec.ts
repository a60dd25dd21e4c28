import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DatabaseLimits, type MigrationOutcome, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { LocalPostgresProvisioner } from './local-postgres-provisioner.adapter.js';
import { NeonProvisioner } from './neon-provisioner.adapter.js';
import { lineAt, localSchemaMigrator, ownerSchemaMigrator } from './pg-schema-migrator.adapter.js';
import { FakeNeonServer } from './testing/fake-neon-server.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const random = new SeededRandom(Date.now() % 1_000_000_007);
const limits: DatabaseLimits = { sizeMb: 50, connections: 3, statementTimeoutMs: 1_000 };
const TIMEOUT = { statementTimeoutMs: 1_000 };

async function asAdminIn<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const failure = (outcome: MigrationOutcome): { file: string; line: number | null; message: string } => {
  if (outcome.kind !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome;
};

describe('lineAt', () => {
  it('counts lines up to a 1-based character position, by code points', () => {
    expect(lineAt('select 1;\nselect x;', 18)).toBe(2);
    expect(lineAt('a', 1)).toBe(1);
    expect(lineAt('😀😀\n\nx', 5)).toBe(3);
  });
});

describe('PgSchemaMigrator on local PostgreSQL: hostile migrations stay inside the project (real PostgreSQL)', () => {
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const migrator = localSchemaMigrator(adminUrl);
  const ref = generateDatabaseRef(random);
  const other = generateDatabaseRef(random);
  const names = databaseNames(ref);
  const inProject = <T>(work: (client: pg.Client) => Promise<T>) => asAdminIn(names.database, work);
  const recorded = () => inProject(async (c) => (await c.query<{ name: string }>('SELECT name FROM kiln.schema_migrations ORDER BY name')).rows.map((r) => r.name));

  beforeAll(async () => {
    await provisioner.provision(ref, limits);
    await provisioner.provision(other, limits);
  }, 60_000);
  afterAll(async () => {
    await provisioner.drop(ref).catch(() => undefined);
    await provisioner.drop(other).catch(() => undefined);
    await provisioner.close();
  }, 60_000);

  it('applies pending files in order as the owner, records name and checksum, and runs each once', async () => {
    const files = [
      { name: '001_todos.sql', sql: 'create table todos (id bigint generated always as identity primary key, user_id uuid not null, title text not null);' },
      { name: '002_notes.sql', sql: 'create table notes (id int primary key, body text);\ninsert into notes values (1, current_user);' },
    ];
    expect(await migrator.migrate(ref, files, TIMEOUT)).toEqual({ kind: 'applied', applied: ['001_todos.sql', '002_notes.sql'], kept: [] });
    expect(await migrator.migrate(ref, files, TIMEOUT)).toEqual({ kind: 'applied', applied: [], kept: [] });
    await inProject(async (c) => {
      const owners = await c.query<{ relname: string; owner: string; rls: boolean }>(
        `SELECT relname, pg_get_userbyid(relowner) AS owner, relrowsecurity AS rls FROM pg_class WHERE relname IN ('todos', 'notes') ORDER BY relname`,
      );
      expect(owners.rows).toEqual([
        { relname: 'notes', owner: names.owner, rls: true },
        { relname: 'todos', owner: names.owner, rls: true },
      ]);
      expect((await c.query('SELECT body FROM public.notes')).rows).toEqual([{ body: names.owner }]);
      const rows = await c.query<{ checksum: string }>('SELECT checksum FROM kiln.schema_migrations');
      expect(rows.rows.every((r) => /^[0-9a-f]{64}$/.test(r.checksum))).toBe(true);
      // Owner policies by default: todos has user_id uuid, notes has not (RLS on, no policy).
      const policies = await c.query<{ tablename: string; cmd: string; roles: string[] }>(`SELECT tablename, cmd, roles::text[] AS roles FROM pg_policies ORDER BY tablename, cmd`);
      expect(policies.rows).toEqual(['DELETE', 'INSERT', 'SELECT', 'UPDATE'].map((cmd) => ({ tablename: 'todos', cmd, roles: ['authenticated'] })));
    });
    expect(await recorded()).toEqual(['001_todos.sql', '002_notes.sql']);
  });

  it('refuses a changed applied file and reports removed ones as kept', async () => {
    const changed = await migrator.migrate(ref, [{ name: '001_todos.sql', sql: 'drop table todos;' }], TIMEOUT);
    expect(changed).toEqual({ kind: 'changed', file: '001_todos.sql' });
    const kept = await migrator.migrate(ref, [], TIMEOUT);
    expect(kept).toEqual({ kind: 'applied', applied: [], kept: ['001_todos.sql', '002_notes.sql'] });
    expect(await migrator.applied(ref)).toEqual(['001_todos.sql', '002_notes.sql']);
    expect(await inProject(async (c) => (await c.query(`SELECT to_regclass('public.todos') IS NOT NULL AS there`)).rows[0])).toEqual({ there: true });
  });

  it('reports the file, the line and the message, and keeps nothing of the run', async () => {
    const outcome = await migrator.migrate(
      ref,
      [
        { name: '003_ok.sql', sql: 'create table half (id int);' },
        { name: '004_bad.sql', sql: 'create table fine (id int);\n\nselect * from missing_table;' },
      ],
      TIMEOUT,
    );
    expect(failure(outcome)).toEqual({ kind: 'failed', file: '004_bad.sql', line: 3, message: 'relation "missing_table" does not exist' });
    expect(await inProject(async (c) => (await c.query(`SELECT to_regclass('public.half') AS half, to_regclass('public.fine') AS fine`)).rows[0])).toEqual({ half: null, fine: null });
    expect(await recorded()).toEqual(['001_todos.sql', '002_notes.sql']);
  });

  const hostile: Array<[string, string, RegExp]> = [
    ['ALTER ROLE', `ALTER ROLE "${databaseNames(ref).owner}" SUPERUSER`, /permission denied|must be superuser/],
    ['CREATE ROLE', 'CREATE ROLE evil LOGIN', /permission denied/],
    ['CREATE ROLE SUPERUSER', 'CREATE ROLE evil LOGIN SUPERUSER', /must be superuser/],
    ['SET ROLE postgres', 'SET ROLE postgres', /cannot set parameter "role" within security-definer function/],
    ['RESET ROLE (back to the admin)', 'RESET ROLE; CREATE ROLE evil2', /cannot set parameter "role"/],
    ['SET SESSION AUTHORIZATION', 'SET SESSION AUTHORIZATION postgres', /session_authorization/],
    ['set_config role', `SELECT set_config('role', 'postgres', false)`, /cannot set parameter "role"/],
    ['SET ROLE inside DO', `DO $$ BEGIN EXECUTE 'SET ROLE postgres'; END $$`, /cannot set parameter "role"/],
    ['COPY FROM PROGRAM', `CREATE TABLE x (t text); COPY x FROM PROGRAM 'id'`, /permission denied|pg_execute_server_program/],
    ['\\connect', '\\connect postgres', /syntax error/],
    ['DROP EVENT TRIGGER', 'DROP EVENT TRIGGER kiln_enable_rls_on_new_tables', /must be owner/],
    ['CREATE EXTENSION (untrusted)', 'CREATE EXTENSION file_fdw', /permission denied|not available|must be superuser|could not open/],
    ['reading pg_authid', 'CREATE TABLE stolen AS SELECT rolpassword FROM pg_authid', /permission denied/],
    ['COMMIT (to escape the transaction)', 'CREATE TABLE early (id int); COMMIT', /transaction commands|cannot/],
    ['ALTER SYSTEM', `ALTER SYSTEM SET log_statement = 'none'`, /permission denied|must be superuser|cannot run inside a transaction block/],
    ['the auth schema', 'CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql AS $$ SELECT NULL::uuid $$', /permission denied|must be owner/],
    ['the migrations record', `DELETE FROM kiln.schema_migrations`, /permission denied/],
    ['ALTER DATABASE … SET search_path', `ALTER DATABASE "${databaseNames(ref).database}" SET search_path = public, pg_catalog`, /may not change the settings/],
    ['ALTER ROLE … SET', `ALTER ROLE "${databaseNames(ref).owner}" SET search_path = public, pg_catalog`, /may not change the settings|permission denied/],
    ['another project', `SELECT * FROM dblink('dbname=kiln_app_${other}', 'select 1') AS t(x int)`, /does not exist/],
  ];

  it.each(hostile)('refuses %s: the run fails and nothing stays', async (_label, sql, expected) => {
    const outcome = failure(await migrator.migrate(ref, [{ name: '100_hostile.sql', sql }], TIMEOUT));
    expect(outcome.message).toMatch(expected);
    expect(await recorded()).toEqual(['001_todos.sql', '002_notes.sql']);
    await asAdminIn('postgres', async (c) => {
      const role = await c.query(`SELECT rolsuper, rolcreaterole, rolbypassrls FROM pg_roles WHERE rolname = $1`, [names.owner]);
      expect(role.rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolbypassrls: false }]);
      expect((await c.query(`SELECT 1 FROM pg_roles WHERE rolname IN ('evil', 'evil2')`)).rowCount).toBe(0);
    });
  });

  it('cancels a statement past the timeout, even when the file lifts its own timeout', async () => {
    const started = Date.now();
    const outcome = failure(await migrator.migrate(ref, [{ name: '101_sleep.sql', sql: 'SET statement_timeout = 0;\nSELECT pg_sleep(10);' }], TIMEOUT));
    expect(outcome.message).toMatch(/statement timeout/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('lets the owner turn RLS off on its own table (the publish gate catches it) and leaves the admin session unshadowed', async () => {
    const files = [
      { name: '001_todos.sql', sql: 'create table todos (id bigint generated always as identity primary key, user_id uuid not null, title text not null);' },
      { name: '002_notes.sql', sql: 'create table notes (id int primary key, body text);\ninsert into notes values (1, current_user);' },
      {
        name: '005_rls_off.sql',
        sql: `ALTER TABLE notes DISABLE ROW LEVEL SECURITY;
SET search_path = public, pg_catalog;
CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE sql AS $$ SELECT '2000-01-01'::timestamptz $$;`,
      },
      { name: '006_after.sql', sql: 'create table after_it (id int);' },
    ];
    expect(await migrator.migrate(ref, files, TIMEOUT)).toEqual({ kind: 'applied', applied: ['005_rls_off.sql', '006_after.sql'], kept: [] });
    const inspection = await provisioner.inspect(ref);
    expect(inspection?.tables.filter((t) => !t.rlsEnabled).map((t) => t.name)).toEqual(['notes']);
    await inProject(async (c) => {
      const at = await c.query<{ applied_at: Date; owner: string }>(
        `SELECT applied_at, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'after_it') AS owner FROM kiln.schema_migrations WHERE name = '006_after.sql'`,
      );
      expect(at.rows[0]!.applied_at.getUTCFullYear()).toBeGreaterThan(2020);
      expect(at.rows[0]!.owner).toBe(names.owner);
    });
  });
});

describe('PgSchemaMigrator on Neon (the owner’s own login, against the fake Neon API on local PostgreSQL)', () => {
  let fake: FakeNeonServer;
  let provisioner: NeonProvisioner;
  const ref = generateDatabaseRef(random);

  beforeAll(async () => {
    fake = await new FakeNeonServer(adminUrl).start();
    provisioner = new NeonProvisioner({ apiKey: fake.apiKey, apiUrl: fake.url, ssl: false });
    await provisioner.provision(ref, limits);
  }, 60_000);
  afterAll(async () => {
    await provisioner.drop(ref).catch(() => undefined);
    await fake.stop();
  }, 60_000);

  it('applies as the owner, all or nothing (a COMMIT inside a file cannot end the run), under the timeout', async () => {
    const migrator = ownerSchemaMigrator((r) => provisioner.ownerClient(r));
    const escape = await migrator.migrate(ref, [{ name: '001.sql', sql: 'create table early (id int);\nCOMMIT;\ncreate table late (id int);' }], TIMEOUT);
    expect(failure(escape).message).toMatch(/transaction commands/);
    const sleep = await migrator.migrate(ref, [{ name: '001.sql', sql: 'SET statement_timeout = 0;\nSELECT pg_sleep(10);' }], TIMEOUT);
    expect(failure(sleep).message).toMatch(/statement timeout/);
    const files = [{ name: '001.sql', sql: 'create table todos (id int, user_id uuid);\nalter table todos enable row level security;' }];
    expect(await migrator.migrate(ref, files, TIMEOUT)).toEqual({ kind: 'applied', applied: ['001.sql'], kept: [] });
    expect(await migrator.applied(ref)).toEqual(['001.sql']);
    const inspection = await provisioner.inspect(ref);
    expect(inspection?.tables.map((t) => [t.name, t.rlsEnabled])).toEqual([['todos', true]]);
  });

  it('puts realtime’s trigger on the tables a migration made (no event trigger on Neon): a change is NOTIFYed with its key', async () => {
    const migrator = ownerSchemaMigrator((r) => provisioner.ownerClient(r));
    const files = [
      { name: '001.sql', sql: 'create table todos (id int, user_id uuid);\nalter table todos enable row level security;' },
      { name: '002.sql', sql: 'create table messages (id int primary key, body text);\nalter table messages enable row level security;' },
    ];
    expect(await migrator.migrate(ref, files, TIMEOUT)).toMatchObject({ kind: 'applied', applied: ['002.sql'] });
    const owner = await provisioner.ownerClient(ref);
    try {
      const triggers = await owner.query<{ table: string }>("SELECT tgrelid::regclass::text AS table FROM pg_trigger WHERE tgname = 'kiln_realtime' ORDER BY 1");
      expect(triggers.rows.map((r) => r.table)).toEqual(['messages', 'todos']);
      const heard = new Promise<string>((resolve) => owner.on('notification', (n) => resolve(n.payload ?? '')));
      await owner.query('LISTEN kiln_realtime');
      await owner.query("INSERT INTO messages VALUES (7, 'hello')");
      expect(JSON.parse(await heard)).toMatchObject({ schema: 'public', table: 'messages', type: 'INSERT', pk: { id: 7 } });
    } finally {
      await owner.end();
    }
  });
});
