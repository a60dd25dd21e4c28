import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { LocalPostgresProvisioner } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import pg from 'pg';
import { type TestApp, type TestUser, newUser, setPlan, signIn, startTestApp, testConfig } from '../testing/e2e.js';
import { productionDatabases } from './production-databases.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const MB = 1024 * 1024;

/**
 * The size quota end to end (docs/databases.md "Limits"): the API as main.ts builds it on the
 * local provider, with DATABASE_FREE_SIZE_MB=1. A free project's table filled past 1 MB refuses
 * writes through its data origin (402 in PostgREST's shape) and still reads and deletes; another
 * project under its quota writes. Deleting the projects drops their databases.
 */
describe('data API size quota on the local PostgreSQL provider (e2e)', () => {
  const env = { DATABASE_FREE_SIZE_MB: '1' };
  let t: TestApp;
  let user: TestUser;
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const made: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env, overrides: { databases: productionDatabases(testConfig(env), adminUrl, new Logger('data-limits e2e')) } });
    user = newUser();
    await signIn(t, user);
    await setPlan(t, user.id, 'free');
  });
  afterAll(async () => {
    for (const ref of made) await provisioner.drop(ref); // after a failure: nothing left on the shared server
    await provisioner.close();
    await t?.close();
  });

  /** A project with a database and a table `notes` anyone with the key may use; `fill` rows of 1 KiB put in by the owner. */
  async function projectWithNotes(fill: number): Promise<{ id: string; ref: string; key: string }> {
    const id = ((await t.http().post('/api/projects').set(user.auth).send({ name: 'Notes' }).expect(201)).body as { id: string }).id;
    const { ref, anon_key: key } = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200)).body as { ref: string; anon_key: string };
    made.push(ref);
    const admin = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/kiln_app_${ref}`) });
    await admin.connect();
    try {
      await admin.query(`SET ROLE "kiln_app_${ref}_owner"`);
      await admin.query('CREATE TABLE public.notes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)');
      await admin.query('CREATE POLICY anyone ON public.notes TO anon USING (true) WITH CHECK (true)');
      // 1 KiB rows stay under TOAST's threshold: stored as they are, not compressed.
      await admin.query(`INSERT INTO public.notes (body) SELECT repeat(md5(i::text), 32) FROM generate_series(1, $1::int) i`, [fill]);
    } finally {
      await admin.end();
    }
    return { id, ref, key };
  }
  const data = (ref: string, key: string) => ({
    get: (path: string) => t.http().get(`/rest/v1/${path}`).set('Host', `${ref}.data.localhost`).set('apikey', key),
    post: (path: string, body: unknown) => t.http().post(`/rest/v1/${path}`).set('Host', `${ref}.data.localhost`).set('apikey', key).send(body as object),
    patch: (path: string, body: unknown) => t.http().patch(`/rest/v1/${path}`).set('Host', `${ref}.data.localhost`).set('apikey', key).send(body as object),
    delete: (path: string) => t.http().delete(`/rest/v1/${path}`).set('Host', `${ref}.data.localhost`).set('apikey', key),
  });

  it('refuses writes past 1 MB with 402, still reads and deletes, and lets a project under its quota write', async () => {
    const full = await projectWithNotes(1_500);
    const check = (await t.http().get(`/api/db/check/${full.id}`).set(user.auth).expect(200)).body as { size_bytes: number; quota_bytes: number; over_quota: boolean };
    expect(check).toMatchObject({ quota_bytes: MB, over_quota: true });
    expect(check.size_bytes).toBeGreaterThan(1.5 * MB);
    const api = data(full.ref, full.key);

    for (const refused of [await api.post('notes', { body: 'one more' }), await api.patch('notes?id=eq.1', { body: 'shorter' })]) {
      expect(refused.status).toBe(402);
      expect(refused.body).toEqual({
        code: 'DATABASES.QUOTA_EXCEEDED',
        message: `This project’s database uses ${Math.ceil(check.size_bytes / MB)} MB of its 1 MB. Delete data or upgrade your plan to write more.`,
        details: expect.stringMatching(/^size_bytes=\d+ quota_bytes=1048576$/),
        hint: 'Reads and deletes are still allowed: delete rows to get back under the quota.',
      });
    }
    const read = await api.get('notes?select=id&id=lte.2&order=id');
    expect([read.status, read.body]).toEqual([200, [{ id: 1 }, { id: 2 }]]);
    expect((await api.delete('notes?id=lte.100')).status).toBe(204);
    expect((await api.get('notes?select=id&id=lte.100')).body).toEqual([]);

    const roomy = await projectWithNotes(10);
    const written = await data(roomy.ref, roomy.key).post('notes', { body: 'fits' });
    expect(written.status).toBe(201);

    // Deleting the projects drops their databases (docs/decisions.md).
    for (const { id, ref } of [full, roomy]) {
      expect((await t.http().delete(`/api/projects/${id}`).set(user.auth)).status).toBeLessThan(300);
      expect(await provisioner.inspect(ref)).toBeNull();
      expect((await data(ref, full.key).get('notes')).status).toBe(404);
    }
  }, 60_000);
});
