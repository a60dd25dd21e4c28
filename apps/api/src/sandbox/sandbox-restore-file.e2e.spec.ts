import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, newUser, startTestApp } from '../testing/e2e.js';
import { ScriptedSandboxHost } from './testing/scripted-sandbox-host.js';

// "Undo this file" in Versions (issue #14): POST /api/sandbox/:id/git/restore-file.
describe('sandbox API: undo one file of a version (HTTP)', () => {
  let t: TestApp;
  let host: ScriptedSandboxHost;

  beforeAll(async () => {
    host = new ScriptedSandboxHost();
    t = await startTestApp({ overrides: { sandboxHost: host } });
  });

  afterAll(async () => {
    await t.close();
  });

  const ready = async () => {
    const user = newUser();
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Versions app' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    return { user, id, api: `/api/sandbox/${id}` };
  };

  it('puts the file back as before the version, as a new version; a file the version added is deleted', async () => {
    const { user, api } = await ready();
    const write = (path: string, content: string) => t.http().post(`${api}/write-file`).set(user.auth).send({ path, content }).expect(200);
    await write('src/a.ts', 'one');
    await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'First' }).expect(200);
    await write('src/a.ts', 'two');
    await write('src/b.ts', 'added');
    const second = (await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'Second' }).expect(200)).body.hash as string;

    const undone = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: second, path: 'src/a.ts' });
    expect(undone.status).toBe(200);
    expect(undone.body).toMatchObject({ success: true, hash: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect((await t.http().get(`${api}/read-file`).query({ path: 'src/a.ts' }).set(user.auth).expect(200)).body.content).toBe('one');
    expect((await t.http().get(`${api}/read-file`).query({ path: 'src/b.ts' }).set(user.auth).expect(200)).body.content).toBe('added');
    const history = await t.http().get(`${api}/git/history`).set(user.auth).expect(200);
    expect(history.body[0]).toMatchObject({ hash: undone.body.hash, files_changed: ['src/a.ts'] });

    const added = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: second, path: 'src/b.ts' });
    expect(added.body).toMatchObject({ success: true });
    expect((await t.http().get(`${api}/read-file`).query({ path: 'src/b.ts' }).set(user.auth)).status).toBe(404);
  });

  it('refuses paths outside the project, bad bodies and other users; a host failure is success false', async () => {
    const { user, id, api } = await ready();
    const outside = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: 'abcd', path: '../x.ts' });
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({ code: 'SANDBOX.PATH_OUTSIDE' });
    const noPath = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: 'abcd' });
    expect(noPath.status).toBe(400);
    expect(noPath.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    const badHash = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: 'HEAD~1', path: 'src/a.ts' });
    expect(badHash.status).toBe(400);
    const stranger = await t.http().post(`/api/sandbox/${id}/git/restore-file`).set(newUser().auth).send({ commitHash: 'abcd', path: 'src/a.ts' });
    expect(stranger.status).toBe(404);
    expect(stranger.body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    const unknown = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: 'abcdef1', path: 'src/a.ts' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ success: false });
    host.failGit = true;
    try {
      const failed = await t.http().post(`${api}/git/restore-file`).set(user.auth).send({ commitHash: 'abcd', path: 'src/a.ts' });
      expect(failed.body).toEqual({ success: false, message: 'Could not undo this file' });
    } finally {
      host.failGit = false;
    }
  });
});
