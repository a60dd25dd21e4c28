import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, inMemoryDatabases, newUser, setPlan, signIn, startTestApp } from '../testing/e2e.js';

/**
 * Migrations, the connection file and the publish gate through HTTP (docs/databases.md
 * "Migrations") on the in-memory provisioner and migrator and the in-memory sandbox.
 */
describe('migrations, .env.local and the publish gate (e2e)', () => {
  let t: TestApp;
  const databases = inMemoryDatabases();

  beforeAll(async () => {
    t = await startTestApp({ overrides: { databases } });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function projectOf(): Promise<{ user: TestUser; id: string }> {
    const user = newUser();
    await signIn(t, user);
    await setPlan(t, user.id, 'pro_monthly');
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Todos' }).expect(201);
    const id = (created.body as { id: string }).id;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).send({}).expect((r) => expect(r.status).toBeLessThan(300));
    return { user, id };
  }
  const write = (user: TestUser, id: string, path: string, content: string) =>
    t.http().post(`/api/sandbox/${id}/write-file`).set(user.auth).send({ path, content }).expect(200);
  const read = (user: TestUser, id: string, path: string) => t.http().get(`/api/sandbox/${id}/read-file`).query({ path }).set(user.auth);
  const migrate = (user: TestUser, id: string) => t.http().post(`/api/db/migrate/${id}`).set(user.auth).send();
  const publish = (user: TestUser, id: string) => t.http().post('/api/fly/create-project').set(user.auth).send({ project_id: id, publish: true });

  it('writes .env.local with the data origin and the anon key at provisioning, and removes it on detach', async () => {
    const { user, id } = await projectOf();
    const provisioned = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200)).body as { url: string; anon_key: string };
    const file = await read(user, id, '.env.local');
    expect(JSON.stringify(file.body)).toContain(`VITE_SUPABASE_URL=${provisioned.url}`);
    expect(JSON.stringify(file.body)).toContain(`VITE_SUPABASE_ANON_KEY=${provisioned.anon_key}`);
    await t.http().delete(`/database/${id}`).set(user.auth).expect(200);
    expect(JSON.stringify((await read(user, id, '.env.local')).body)).not.toContain('VITE_SUPABASE_URL');
  });

  it('applies migrations in name order, once; a failure names the file and the line; removed files are kept', async () => {
    const { user, id } = await projectOf();
    expect((await migrate(user, id)).status).toBe(404); // no database yet
    await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200);
    await write(user, id, 'supabase/migrations/002_notes.sql', 'create table notes (id int);\n');
    await write(user, id, 'supabase/migrations/001_todos.sql', 'create table todos (id int, user_id uuid);\n');
    const first = await migrate(user, id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ folder: 'supabase/migrations', applied: ['001_todos.sql', '002_notes.sql'], kept: [] });
    expect((await migrate(user, id)).body).toMatchObject({ applied: [], kept: [] });

    await write(user, id, 'supabase/migrations/003_bad.sql', 'create table x (id int);\nfail here;\n');
    const failed = await migrate(user, id);
    expect(failed.status).toBe(422);
    expect(failed.body).toMatchObject({ code: 'DATABASES.MIGRATION_FAILED', file: 'supabase/migrations/003_bad.sql', line: 2 });
    expect(failed.body.detail).toContain('line 2');

    await write(user, id, 'supabase/migrations/001_todos.sql', 'create table todos (id int);\n');
    const changed = await migrate(user, id);
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({ code: 'DATABASES.MIGRATION_CHANGED', file: 'supabase/migrations/001_todos.sql' });
  });

  it('refuses to publish while a table has row-level security off, naming it; a project without a database publishes', async () => {
    const { user, id } = await projectOf();
    await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200);
    await write(user, id, 'supabase/migrations/001_todos.sql', 'create table todos (id int);\nalter table todos disable row level security;\n');
    await migrate(user, id).expect(200);
    const refused = await publish(user, id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'HOSTING.DATABASE_UNSAFE', tables: ['todos'] });
    expect(refused.body.detail).toMatch(/^The table todos has row-level security turned off/);

    const plain = await projectOf();
    expect((await publish(plain.user, plain.id)).status).toBe(200);
  });

  it('restoring a version without applied migrations keeps the schema and says so', async () => {
    const { user, id } = await projectOf();
    await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200);
    await write(user, id, 'src/note.ts', 'export const note = 1;\n');
    const before = await t.http().post(`/api/sandbox/${id}/git/commit`).set(user.auth).send({ message: 'before the database' }).expect(200);
    const hash = (before.body as { hash: string }).hash;
    await write(user, id, 'supabase/migrations/001_todos.sql', 'create table todos (id int);\n');
    await migrate(user, id).expect(200);
    await t.http().post(`/api/sandbox/${id}/git/commit`).set(user.auth).send({ message: 'todos' }).expect(200);
    const restored = await t.http().post(`/api/sandbox/${id}/git/restore`).set(user.auth).send({ commitHash: hash }).expect(200);
    expect(restored.body).toMatchObject({ success: true });
    expect(restored.body.message).toContain('The database schema was kept: the migration 001_todos.sql had been applied');
    expect(databases.provisioner.has((await t.http().get(`/api/db/check/${id}`).set(user.auth)).body.ref)).toBe(true);
    expect((await t.http().get(`/api/db/check/${id}`).set(user.auth)).body.tables.map((x: { name: string }) => x.name)).toEqual(['todos']);
  });
});
