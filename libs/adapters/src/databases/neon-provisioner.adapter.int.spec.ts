import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { databaseNames, generateDatabaseRef } from '@kiln/domain';
import { databaseProvisionerContract } from '@kiln/domain/contracts';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { NeonProvisioner } from './neon-provisioner.adapter.js';
import { FakeNeonServer } from './testing/fake-neon-server.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const random = new SeededRandom((Date.now() + 17) % 1_000_000_007);
const newRef = () => generateDatabaseRef(random);

/** A migration's CREATE TABLE as the owner; Neon has no event trigger, so the migration enables RLS itself. */
async function createTable(ref: string, name: string): Promise<void> {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseNames(ref).database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`SET ROLE "${databaseNames(ref).owner}"`);
    await client.query(`CREATE TABLE public.${name} (id uuid PRIMARY KEY, title text NOT NULL)`);
    await client.query(`ALTER TABLE public.${name} ENABLE ROW LEVEL SECURITY`);
  } finally {
    await client.end();
  }
}

async function insertRows(ref: string, table: string, rows: readonly { id: string; title: string }[]): Promise<void> {
  const url = new URL(adminUrl);
  url.pathname = `/${databaseNames(ref).database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    for (const row of rows) await client.query(`INSERT INTO public."${table}" (id, title) VALUES ($1, $2)`, [row.id, row.title]);
  } finally {
    await client.end();
  }
}

databaseProvisionerContract('Neon (against a fake of its API on local PostgreSQL)', async () => {
  const fake = await new FakeNeonServer(adminUrl).start();
  const provisioner = new NeonProvisioner({ apiKey: fake.apiKey, apiUrl: fake.url, ssl: false });
  return { provisioner, newRef, createTable, insertRows, close: () => fake.stop() };
});

describe('NeonProvisioner', () => {
  let fake: FakeNeonServer;
  let provisioner: NeonProvisioner;

  beforeAll(async () => {
    fake = await new FakeNeonServer(adminUrl).start();
    provisioner = new NeonProvisioner({ apiKey: fake.apiKey, apiUrl: fake.url, ssl: false });
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('makes one Neon project per database and a least-privilege authenticator that logs in with its password', async () => {
    const ref = newRef();
    const connection = await provisioner.provision(ref, { sizeMb: 10, connections: 2, statementTimeoutMs: 300 });
    expect([...fake.projects.values()].map((p) => [p.name, p.database, p.role])).toEqual([
      [`kiln_app_${ref}`, `kiln_app_${ref}`, `kiln_app_${ref}_owner`],
    ]);
    await provisioner.provision(ref, { sizeMb: 10, connections: 2, statementTimeoutMs: 300 });
    expect(fake.projects.size).toBe(1);
    const client = new pg.Client({ host: connection.host, port: connection.port, user: connection.user, password: connection.password, database: connection.database });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolconnlimit FROM pg_roles WHERE rolname = current_user');
      expect(rows[0]).toEqual({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false, rolconnlimit: 2 });
      await expect(client.query('SELECT pg_sleep(2)')).rejects.toMatchObject({ code: '57014' });
      await expect(client.query('CREATE TABLE public.x (id int)')).rejects.toMatchObject({ code: '42501' });
    } finally {
      await client.end();
    }
    await provisioner.drop(ref);
    expect(fake.projects.size).toBe(0);
  });

  it('turns the API being down or refusing the key into DatabaseServerDown', async () => {
    fake.failNext = 1;
    await expect(provisioner.provision(newRef(), { sizeMb: 10, connections: 2, statementTimeoutMs: 300 })).rejects.toMatchObject({ name: 'DatabaseServerDown' });
    const wrongKey = new NeonProvisioner({ apiKey: 'nope', apiUrl: fake.url, ssl: false });
    await expect(wrongKey.inspect(newRef())).rejects.toMatchObject({ name: 'DatabaseServerDown' });
    const nowhere = new NeonProvisioner({ apiKey: 'x', apiUrl: 'http://127.0.0.1:1/api/v2', ssl: false });
    await expect(nowhere.drop(newRef())).rejects.toMatchObject({ name: 'DatabaseServerDown' });
  });
});
