import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GetDatabaseConnection } from '@kiln/domain';
import { jwtVerify } from 'jose';
import { type TestApp, type TestUser, inMemoryDatabases, newUser, setPlan, signIn, startTestApp } from '../testing/e2e.js';

/**
 * Project databases through HTTP (docs/databases.md "Provisioning API") on the in-memory
 * provisioner, with Kiln's own records in PostgreSQL (or memory with KILN_E2E_PERSISTENCE=memory).
 */
describe('database routes (e2e)', () => {
  let t: TestApp;
  const databases = inMemoryDatabases();

  beforeAll(async () => {
    t = await startTestApp({ overrides: { databases } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function projectOf(plan = 'free'): Promise<{ user: TestUser; id: string }> {
    const user = newUser();
    await signIn(t, user);
    await setPlan(t, user.id, plan);
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Todos' }).expect(201);
    return { user, id: (created.body as { id: string }).id };
  }
  const provision = (user: TestUser, id: unknown) => t.http().post('/api/db/provision').set(user.auth).send({ project_id: id });
  const check = (user: TestUser, id: string) => t.http().get(`/api/db/check/${id}`).set(user.auth);

  it('provisions: the data origin and an anon key (HS256, the conventions’ claims), never a password; again gives the same', async () => {
    const { user, id } = await projectOf();
    const response = await provision(user, id);
    expect(response.status).toBe(200);
    const { ref, anon_key } = response.body as { ref: string; anon_key: string };
    expect(ref).toMatch(/^[a-z0-9]{20}$/);
    expect(response.body).toEqual({ project_id: id, ref, url: `http://${ref}.data.localhost:3000`, anon_key, connected: true });
    expect(JSON.stringify(response.body)).not.toMatch(/password|in-memory-password|secret/i);
    const [header, claims] = anon_key.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(claims).toEqual({ role: 'anon', ref, iss: 'kiln' });
    expect((await provision(user, id)).body).toEqual(response.body);
    expect(databases.provisioner.limitsOf(ref)).toEqual(t.config.databases.limits.free);
  });

  it('signs each project’s anon key with that project’s own secret', async () => {
    const a = await projectOf('pro_monthly');
    const b = await projectOf();
    const keyA = (await provision(a.user, a.id)).body.anon_key as string;
    const keyB = (await provision(b.user, b.id)).body.anon_key as string;
    expect(keyA).not.toBe(keyB);
    // The data API's server-side lookup: each key verifies with its own project's secret only.
    const connections = t.app.get(GetDatabaseConnection, { strict: false });
    const secretOf = async (key: string) => {
      const facts = await connections.byRef((JSON.parse(Buffer.from(key.split('.')[1]!, 'base64url').toString()) as { ref: string }).ref);
      if (!facts.ok) throw new Error(facts.error.code);
      return new TextEncoder().encode(facts.value.jwtSecret);
    };
    expect((await jwtVerify(keyA, await secretOf(keyA), { algorithms: ['HS256'] })).payload).toMatchObject({ role: 'anon' });
    await expect(jwtVerify(keyA, await secretOf(keyB))).rejects.toThrow();
    expect(databases.provisioner.limitsOf((await check(a.user, a.id)).body.ref)).toEqual(t.config.databases.limits.paid);
  });

  it('checks: not connected before, then size, quota and tables with row-level security per table', async () => {
    const { user, id } = await projectOf();
    expect((await check(user, id)).body).toEqual({ connected: false, size_bytes: 0, tables: [] });
    const { ref, anon_key } = (await provision(user, id)).body as { ref: string; anon_key: string };
    databases.provisioner.addTable(ref, 'todos', [{ name: 'id', type: 'uuid', nullable: false }], true);
    databases.provisioner.addTable(ref, 'legacy', [], false);
    const body = (await check(user, id).expect(200)).body;
    expect(body).toMatchObject({ connected: true, ref, url: `http://${ref}.data.localhost:3000`, anon_key, over_quota: false, max_connections: t.config.databases.limits.free.connections });
    expect(body.quota_bytes).toBe(t.config.databases.limits.free.sizeMb * 1024 * 1024);
    expect(body.size_bytes).toBeGreaterThan(0);
    expect(body.tables).toEqual([
      { schema: 'public', name: 'legacy', rls_enabled: false, row_estimate: 0, columns: [] },
      { schema: 'public', name: 'todos', rls_enabled: true, row_estimate: 0, columns: [{ name: 'id', type: 'uuid', nullable: false }] },
    ]);
    databases.provisioner.setSize(ref, 10 * 1024 * 1024 * 1024);
    expect((await check(user, id)).body.over_quota).toBe(true);
  });

  it('DELETE /database/{id}: false detaches (data kept, provision reattaches), true drops; both need a bearer token', async () => {
    const { user, id } = await projectOf();
    const first = (await provision(user, id)).body as { ref: string; anon_key: string };
    databases.provisioner.addTable(first.ref, 'notes');
    await t.http().delete(`/database/${id}?deleteFromProvider=false`).expect(401);
    const detached = await t.http().delete(`/database/${id}?deleteFromProvider=false`).set(user.auth);
    expect(detached.status).toBe(200);
    expect(detached.body).toEqual({ ref: first.ref, deleted_from_provider: false, connected: false });
    expect((await check(user, id)).body.connected).toBe(false);
    expect(databases.provisioner.has(first.ref)).toBe(true);
    const again = (await provision(user, id)).body as { ref: string; anon_key: string };
    expect(again).toMatchObject({ ref: first.ref, anon_key: first.anon_key });
    expect((await check(user, id)).body.tables.map((table: { name: string }) => table.name)).toEqual(['notes']);
    const dropped = await t.http().delete(`/database/${id}?deleteFromProvider=true`).set(user.auth);
    expect(dropped.body).toEqual({ ref: first.ref, deleted_from_provider: true, connected: false });
    expect(databases.provisioner.has(first.ref)).toBe(false);
    expect((await t.http().delete(`/database/${id}?deleteFromProvider=true`).set(user.auth)).body.code).toBe('DATABASES.NOT_CONNECTED');
    const fresh = (await provision(user, id)).body as { ref: string };
    expect(fresh.ref).not.toBe(first.ref);
    expect((await t.http().delete(`/database/${id}?deleteFromProvider=maybe`).set(user.auth)).status).toBe(400);
    expect((await t.http().delete(`/database/${id}`).set(user.auth)).body.deleted_from_provider).toBe(false);
  });

  it('answers 404 for another user’s project or an unknown one, and 400 for a malformed body', async () => {
    const { id } = await projectOf();
    const mallory = newUser();
    await signIn(t, mallory);
    for (const response of [
      await provision(mallory, id),
      await check(mallory, id),
      await t.http().delete(`/database/${id}?deleteFromProvider=true`).set(mallory.auth),
      await provision(mallory, randomUUID()),
      await check(mallory, 'not-a-uuid'),
    ]) {
      expect([response.status, response.body.code]).toEqual([404, 'PROJECTS.NOT_FOUND']);
    }
    for (const body of [{}, { project_id: 'x' }, { project_id: 42 }, { project_id: [id] }]) {
      expect((await t.http().post('/api/db/provision').set(mallory.auth).send(body)).status).toBe(400);
    }
    await t.http().post('/api/db/provision').send({ project_id: id }).expect(401);
    await t.http().get(`/api/db/check/${id}`).expect(401);
  });

  it('answers 503 while the database server is down, and keeps nothing half-made', async () => {
    const { user, id } = await projectOf();
    databases.provisioner.down = true;
    try {
      const response = await provision(user, id);
      expect([response.status, response.body.code]).toEqual([503, 'DATABASES.SERVER_UNAVAILABLE']);
    } finally {
      databases.provisioner.down = false;
    }
    expect((await check(user, id)).body.connected).toBe(false);
    expect((await provision(user, id)).status).toBe(200);
    databases.provisioner.down = true;
    try {
      expect((await check(user, id)).status).toBe(503);
      expect((await t.http().delete(`/database/${id}?deleteFromProvider=true`).set(user.auth)).status).toBe(503);
    } finally {
      databases.provisioner.down = false;
    }
    expect((await check(user, id)).body.connected).toBe(true);
  });

  it('drops a project’s database when the project is deleted; while the provider is down the project stays (503) and the delete can be retried', async () => {
    const { user, id } = await projectOf();
    const { ref } = (await provision(user, id)).body as { ref: string };
    databases.provisioner.down = true;
    try {
      const refused = await t.http().delete(`/api/projects/${id}`).set(user.auth);
      expect([refused.status, refused.body.code]).toEqual([503, 'DATABASES.SERVER_UNAVAILABLE']);
    } finally {
      databases.provisioner.down = false;
    }
    expect((await check(user, id)).body.connected).toBe(true);
    expect((await t.http().delete(`/api/projects/${id}`).set(user.auth)).status).toBeLessThan(300);
    expect(databases.provisioner.has(ref)).toBe(false);
    const connections = t.app.get(GetDatabaseConnection, { strict: false });
    expect(await connections.byRef(ref)).toMatchObject({ ok: false, error: { code: 'DATABASES.NOT_CONNECTED' } });
    // A detached database goes too: nothing could ever reattach it once its project is gone.
    const other = await projectOf();
    const detached = (await provision(other.user, other.id)).body as { ref: string };
    await t.http().delete(`/database/${other.id}?deleteFromProvider=false`).set(other.user.auth).expect(200);
    expect(databases.provisioner.has(detached.ref)).toBe(true);
    expect((await t.http().delete(`/api/projects/${other.id}`).set(other.user.auth)).status).toBeLessThan(300);
    expect(databases.provisioner.has(detached.ref)).toBe(false);
  });
});
