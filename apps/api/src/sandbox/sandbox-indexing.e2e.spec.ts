import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';

/** The assistant's search index follows every change made through the sandbox routes. */
describe('sandbox changes keep the project index up to date', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ overrides: { sandboxHost: new InMemorySandboxHost() } });
  });
  afterAll(async () => {
    await t.close();
  });

  const paths = async (user: TestUser, id: string, query: string): Promise<string[]> => {
    const res = await t.http().get('/api/vector/query').query({ query, project_id: id }).set(user.auth).expect(200);
    return (res.body as Array<{ path: string }>).map((hit) => hit.path);
  };

  it('indexes a new sandbox, then write-file, delete-file and cleanup', async () => {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'Indexed' }).expect(201);
    const id = body.id as string;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    // The starter is indexed on creation.
    for (let i = 0; i < 50 && (await paths(user, id, 'Welcome')).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await paths(user, id, 'Welcome')).toContain('src/App.tsx');

    await t.http().post(`/api/sandbox/${id}/write-file`).set(user.auth).send({ path: 'src/Zebrafish.tsx', content: 'export const zebrafishTank = 1;\n' }).expect(200);
    expect(await paths(user, id, 'zebrafish')).toEqual(['src/Zebrafish.tsx']);

    await t.http().delete(`/api/sandbox/${id}/delete-file`).query({ path: 'src/Zebrafish.tsx' }).set(user.auth).expect(200);
    expect(await paths(user, id, 'zebrafish')).toEqual([]);

    await t.http().delete(`/api/sandbox/${id}/cleanup`).set(user.auth).expect(200);
    expect(await paths(user, id, 'Welcome')).toEqual([]);
  });
});
