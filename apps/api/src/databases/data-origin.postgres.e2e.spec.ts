import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataApiServer, LocalPostgresProvisioner, PgDataApi, localSchemaMigrator } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import pg from 'pg';
import { type TestApp, newUser, setPlan, signIn, startTestApp } from '../testing/e2e.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/**
 * The data origin keeps each project's lookup for a second and its pool for longer
 * (DataApiTargetCache, DataApiPools): detaching, deleting and reprovisioning through the routes
 * must drop them at once, not when the cache expires.
 */
describe('data origin after detach, reattach and delete (e2e, local PostgreSQL)', () => {
  let t: TestApp;
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const api = new PgDataApi({ statementTimeoutMs: 5000 });
  const made: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      overrides: {
        databases: {
          provisioner,
          migrator: localSchemaMigrator(adminUrl),
          dataOrigin: (targets, services) => new DataApiServer('http://{ref}.data.localhost:{port}', targets, api, services),
          close: async () => (await api.close(), await provisioner.close()),
        },
      },
    });
  });
  afterAll(async () => {
    for (const ref of made) await provisioner.drop(ref);
    await t?.close();
  });

  it('answers for a ready database only: 404 right after detach and delete, the new login after reattach', async () => {
    const user = newUser();
    await signIn(t, user);
    await setPlan(t, user.id, 'pro_monthly');
    const id = ((await t.http().post('/api/projects').set(user.auth).send({ name: 'Data origin' }).expect(201)).body as { id: string }).id;
    const provisioned = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200)).body as { ref: string; anon_key: string };
    const { ref, anon_key: anonKey } = provisioned;
    made.push(ref);
    const admin = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/kiln_app_${ref}`) });
    await admin.connect();
    try {
      await admin.query(`SET ROLE "kiln_app_${ref}_owner"`);
      await admin.query(`CREATE TABLE public.items (id int PRIMARY KEY, title text NOT NULL)`);
      await admin.query(`INSERT INTO public.items VALUES (1, 'one')`);
      await admin.query(`CREATE POLICY anon_reads ON public.items FOR SELECT TO anon USING (true)`);
    } finally {
      await admin.end();
    }
    const read = () => t.http().get('/rest/v1/items?select=title').set('Host', `${ref}.data.localhost`).set('apikey', anonKey);
    const answered = await read();
    expect([answered.status, answered.body]).toEqual([200, [{ title: 'one' }]]);
    expect(api.knows(ref)).toBe(true);

    // Detached: within the lookup's second, yet already no answer, and no pool kept.
    await t.http().delete(`/database/${id}?deleteFromProvider=false`).set(user.auth).expect(200);
    const detached = await read();
    expect([detached.status, detached.body.code]).toEqual([404, 'PGRST125']);
    expect(api.knows(ref)).toBe(false);

    // Reattached: the same database with a new password (the provisioner sets one each time).
    const before = await facts(ref);
    await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200);
    expect(await facts(ref)).not.toBe(before);
    const again = await read();
    expect([again.status, again.body]).toEqual([200, [{ title: 'one' }]]);

    // Deleted from the provider: gone at once.
    await t.http().delete(`/database/${id}?deleteFromProvider=true`).set(user.auth).expect(200);
    made.splice(made.indexOf(ref), 1);
    expect((await read()).status).toBe(404);
    expect(api.knows(ref)).toBe(false);
  }, 60_000);

  /** The authenticator's password hash on the server: it changes when the password is rotated. */
  async function facts(ref: string): Promise<string> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ p: string }>('SELECT rolpassword AS p FROM pg_authid WHERE rolname = $1', [`kiln_app_${ref}_authenticator`]);
      return rows[0]?.p ?? '';
    } finally {
      await client.end();
    }
  }
});
