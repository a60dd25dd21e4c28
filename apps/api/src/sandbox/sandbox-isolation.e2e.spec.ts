import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, newUser, startTestApp } from '../testing/e2e.js';

/** A server that cannot isolate project code (development only) says so on every sandbox. */
describe('sandbox info tells whether project code is isolated', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });

  async function infoFrom(t: TestApp): Promise<Record<string, unknown>> {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'Isolation' }).expect(201);
    const ensured = await t.http().post(`/api/sandbox/${body.id as string}/ensure`).set(user.auth).expect(200);
    const info = await t.http().get(`/api/sandbox/${body.id as string}/info`).set(user.auth).expect(200);
    expect(info.body.isolated).toBe(ensured.body.isolated);
    return info.body as Record<string, unknown>;
  }

  let isolated: TestApp;
  let open: TestApp;
  beforeAll(async () => {
    isolated = await startTestApp({ overrides: { sandboxHost: new InMemorySandboxHost() } });
    open = await startTestApp({
      overrides: { sandboxHost: new InMemorySandboxHost(), sandboxIsolation: { isolated: false, reason: 'Project code is not isolated on this server: bubblewrap is not installed.' } },
    });
    apps.push(isolated, open);
  }, 60_000);

  it('isolated: no warning', async () => {
    const body = await infoFrom(isolated);
    expect(body['isolated']).toBe(true);
    expect(body).not.toHaveProperty('isolation_warning');
  });

  it('not isolated: the warning the builder shows', async () => {
    const body = await infoFrom(open);
    expect(body['isolated']).toBe(false);
    expect(body['isolation_warning']).toBe('Project code is not isolated on this server: bubblewrap is not installed.');
  });
});
