// The migrations the offline assistant writes for its data-backed apps, applied to a real project
// database (LocalPostgresProvisioner) the way Kiln runs migrations (SET ROLE owner), then used the
// way the data API does (the authenticator, SET LOCAL ROLE, request.jwt.claims): each signed-in
// person reads and changes only their own rows, and anon sees nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AssistantDatabase, type DatabaseConnection, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { DATA_TABLES, MIGRATION_PATH, type DataTableName } from '@kiln/offline-assistant';
import { drive, starterFiles } from '@kiln/offline-assistant/testing';
import { OfflineAiAssistant } from '@kiln/offline-assistant';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { LocalPostgresProvisioner } from '../databases/local-postgres-provisioner.adapter.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const connected: AssistantDatabase = { connected: true, tables: [] };
const PROMPTS: Readonly<Record<DataTableName, string>> = {
  todos: 'a todo list where each person signs in and sees only their own todos',
  notes: 'A notes app where people sign in and keep their own notes',
  habits: 'Build a habit tracker with sign-in so each user tracks their own habits',
  bookings: 'A booking app for my hair salon where clients log in to book appointments',
};

type Who = { readonly role: 'anon' } | { readonly role: 'authenticated'; readonly sub: string };

describe('offline assistant data apps: migrations on a real project database (RLS per owner)', () => {
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const ref = generateDatabaseRef(new SeededRandom(Date.now() % 1_000_000_007));
  let login: DatabaseConnection;
  let api: pg.Client;
  const migrations = new Map<DataTableName, string>();

  /** One data API request: a transaction as `who`, rolled back when it throws. */
  async function as<T>(who: Who, work: (client: pg.Client) => Promise<T>): Promise<T> {
    await api.query('BEGIN');
    try {
      await api.query(`SET LOCAL ROLE ${who.role}`);
      const claims = who.role === 'anon' ? { role: 'anon' } : { role: 'authenticated', sub: who.sub, aud: 'authenticated' };
      await api.query("SELECT set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
      const result = await work(api);
      await api.query('COMMIT');
      return result;
    } catch (error) {
      await api.query('ROLLBACK');
      throw error;
    }
  }

  beforeAll(async () => {
    for (const [table, prompt] of Object.entries(PROMPTS) as [DataTableName, string][]) {
      const built = await drive(new OfflineAiAssistant(), prompt, starterFiles(), [], connected);
      const sql = built.files.get(MIGRATION_PATH(DATA_TABLES[table]));
      if (sql === undefined) throw new Error(`no migration for ${table}`);
      migrations.set(table, sql);
    }
    login = await provisioner.provision(ref, { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 });
    const url = new URL(adminUrl);
    url.pathname = `/${databaseNames(ref).database}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      await admin.query(`SET ROLE "${databaseNames(ref).owner}"`);
      // Twice: a migration run again changes nothing.
      for (const sql of [...migrations.values(), ...migrations.values()]) await admin.query(sql);
    } finally {
      await admin.end();
    }
    api = new pg.Client({ host: login.host, port: login.port, user: login.user, password: login.password, database: login.database });
    await api.connect();
  }, 120_000);

  afterAll(async () => {
    await api?.end();
    await provisioner.drop(ref);
    await provisioner.close();
  });

  it.each(Object.keys(PROMPTS) as DataTableName[])('%s: A sees only A’s rows, cannot touch B’s, anon sees nothing', async (table) => {
    const t = DATA_TABLES[table];
    const a = randomUUID();
    const b = randomUUID();
    const insert = (who: string, text: string) =>
      as({ role: 'authenticated', sub: who }, async (c) => (await c.query(`INSERT INTO public.${table} (${t.text.column}) VALUES ($1) RETURNING id, user_id`, [text])).rows[0] as { id: string; user_id: string });
    const rowA = await insert(a, 'A’s first');
    await insert(a, 'A’s second');
    const rowB = await insert(b, 'B’s only');
    // user_id defaults to the signed-in person.
    expect(rowA.user_id).toBe(a);
    expect(rowB.user_id).toBe(b);

    const seenByA = await as({ role: 'authenticated', sub: a }, async (c) => (await c.query(`SELECT ${t.text.column} AS text, user_id FROM public.${table} ORDER BY created_at`)).rows);
    expect(seenByA.map((r) => r.text)).toEqual(['A’s first', 'A’s second']);
    expect(new Set(seenByA.map((r) => r.user_id))).toEqual(new Set([a]));
    const seenByB = await as({ role: 'authenticated', sub: b }, async (c) => (await c.query(`SELECT ${t.text.column} AS text FROM public.${table}`)).rows);
    expect(seenByB.map((r) => r.text)).toEqual(['B’s only']);

    // A cannot change or delete B's row (nothing matches), nor insert a row as B.
    const changed = await as({ role: 'authenticated', sub: a }, async (c) => (await c.query(`UPDATE public.${table} SET ${t.text.column} = 'taken' WHERE id = $1`, [rowB.id])).rowCount);
    const deleted = await as({ role: 'authenticated', sub: a }, async (c) => (await c.query(`DELETE FROM public.${table} WHERE id = $1`, [rowB.id])).rowCount);
    expect([changed, deleted]).toEqual([0, 0]);
    await expect(as({ role: 'authenticated', sub: a }, (c) => c.query(`INSERT INTO public.${table} (user_id, ${t.text.column}) VALUES ($1, 'forged')`, [b]))).rejects.toThrow(/row-level security/);
    // Nor give their own row to B.
    await expect(as({ role: 'authenticated', sub: a }, (c) => c.query(`UPDATE public.${table} SET user_id = $1 WHERE id = $2`, [b, rowA.id]))).rejects.toThrow(/row-level security/);
    // A changes and deletes A's own.
    const own = await as({ role: 'authenticated', sub: a }, async (c) => (await c.query(`UPDATE public.${table} SET ${t.text.column} = 'edited' WHERE id = $1`, [rowA.id])).rowCount);
    expect(own).toBe(1);
    expect(await as({ role: 'authenticated', sub: a }, async (c) => (await c.query(`DELETE FROM public.${table} WHERE id = $1`, [rowA.id])).rowCount)).toBe(1);

    // anon: reads nothing, writes nothing.
    expect(await as({ role: 'anon' }, async (c) => (await c.query(`SELECT * FROM public.${table}`)).rowCount)).toBe(0);
    await expect(as({ role: 'anon' }, (c) => c.query(`INSERT INTO public.${table} (${t.text.column}) VALUES ('anon')`))).rejects.toThrow(/row-level security|null value/);
    // B's row is untouched.
    const stillB = await as({ role: 'authenticated', sub: b }, async (c) => (await c.query(`SELECT ${t.text.column} AS text FROM public.${table}`)).rows);
    expect(stillB.map((r) => r.text)).toEqual(['B’s only']);
  });

  it('the tables report row-level security on, as the Database panel and the assistant see them', async () => {
    const inspection = await provisioner.inspect(ref);
    const tables = new Map(inspection?.tables.map((t) => [t.name, t]));
    for (const table of Object.keys(PROMPTS)) {
      expect(tables.get(table)?.rlsEnabled).toBe(true);
      expect(tables.get(table)?.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['id', 'user_id', 'created_at']));
    }
  });
});
