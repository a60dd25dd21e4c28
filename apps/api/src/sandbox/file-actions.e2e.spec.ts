import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProjectTurnLock } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import yauzl from 'yauzl';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { TURN_LOCK } from '../tokens.js';
import { SseClient } from './testing/sse-client.js';

/** The names in a zip (yauzl validates every entry name and size as it reads). */
function zipNames(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (error, file) => {
      if (error || !file) return reject(error);
      const names: string[] = [];
      file.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        file.readEntry();
      });
      file.on('end', () => resolve(names));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

/** The builder's file-tree actions over HTTP (docs/sandbox-api.md "File-tree actions"). */
describe('file-tree actions (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ overrides: { sandboxHost: new InMemorySandboxHost() } });
  });
  afterAll(async () => {
    await t.close();
  });

  const baseUrl = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  const ready = async (): Promise<{ user: TestUser; id: string; api: string }> => {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'Actions' }).expect(201);
    const api = `/api/sandbox/${body.id as string}`;
    await t.http().post(`${api}/ensure`).set(user.auth).expect(200);
    return { user, id: body.id as string, api };
  };
  const history = async (user: TestUser, api: string) =>
    ((await t.http().get(`${api}/git/history`).set(user.auth).expect(200)).body as Array<{ message: string }>).map((c) => c.message);
  const read = (user: TestUser, api: string, path: string) => t.http().get(`${api}/read-file`).query({ path }).set(user.auth);

  it('new file, new folder, rename and delete change the project, tell the feed and save versions', async () => {
    const { user, api } = await ready();
    const feed = await SseClient.open(`${baseUrl()}${api}/events`, user.auth);
    try {
      await feed.next((e) => e.event === 'status');
      const made = await t.http().post(`${api}/actions/new-file`).set(user.auth).send({ path: './src/Card.tsx' }).expect(200);
      expect(made.body).toEqual({ success: true, path: 'src/Card.tsx', version: { success: true, message: 'Create src/Card.tsx', hash: expect.any(String) } });
      expect((await feed.next((e) => e.event === 'files-changed')).data).toEqual({ paths: ['src/Card.tsx'], reason: 'write' });
      await t.http().post(`${api}/actions/new-folder`).set(user.auth).send({ path: 'src/ui' }).expect(200);
      const renamed = await t.http().post(`${api}/actions/rename`).set(user.auth).send({ from: 'src/Card.tsx', to: 'src/ui/Card.tsx' }).expect(200);
      expect(renamed.body).toMatchObject({ path: 'src/ui/Card.tsx', version: { success: true } });
      expect((await feed.next((e) => (e.data as { reason?: string }).reason === 'rename')).data).toEqual({ paths: ['src/Card.tsx', 'src/ui/Card.tsx'], reason: 'rename' });
      expect((await read(user, api, 'src/ui/Card.tsx').expect(200)).body.content).toBe('');
      expect((await read(user, api, 'src/Card.tsx')).status).toBe(404);
      await t.http().post(`${api}/actions/delete`).set(user.auth).send({ path: 'src/ui' }).expect(200);
      expect((await read(user, api, 'src/ui/Card.tsx')).status).toBe(404);
    } finally {
      feed.close();
    }
    expect(await history(user, api)).toEqual(['Delete src/ui', 'Rename src/Card.tsx to src/ui/Card.tsx', 'Create src/Card.tsx', 'Initial version']);
  });

  it.each([
    ['new-file', { path: '../escape.ts' }, 400, 'SANDBOX.PATH_OUTSIDE'],
    ['new-file', { path: 'node_modules/react/index.js' }, 400, 'SANDBOX.PATH_PROTECTED'],
    ['new-folder', { path: '.git/hooks' }, 400, 'SANDBOX.PATH_PROTECTED'],
    ['delete', { path: 'node_modules' }, 400, 'SANDBOX.PATH_PROTECTED'],
    ['delete', { path: '.' }, 400, 'VALIDATION_FAILED'],
    ['delete', { path: '/etc/passwd' }, 400, 'SANDBOX.PATH_OUTSIDE'],
    ['delete', {}, 400, 'VALIDATION_FAILED'],
    ['delete', { path: 'src/missing.ts' }, 404, 'SANDBOX.FILE_NOT_FOUND'],
    ['rename', { from: 'src/App.tsx', to: '%2e%2e/x' }, 400, 'SANDBOX.PATH_OUTSIDE'],
    ['rename', { from: 'src/App.tsx', to: 'src/.git/App.tsx' }, 400, 'SANDBOX.PATH_PROTECTED'],
    ['rename', { from: 'src/App.tsx', to: 'src/main.tsx' }, 409, 'SANDBOX.PATH_TAKEN'],
    ['rename', { from: 'src', to: 'src/inside' }, 400, 'VALIDATION_FAILED'],
    ['rename', { from: 'src/App.tsx', to: 42 }, 400, 'VALIDATION_FAILED'],
    ['new-file', { path: 'src/App.tsx' }, 409, 'SANDBOX.PATH_TAKEN'],
  ])('%s %j is %i %s, and nothing changes', async (action, body, status, code) => {
    const { user, api } = await ready();
    const response = await t.http().post(`${api}/actions/${action}`).set(user.auth).send(body);
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    expect((await read(user, api, 'src/App.tsx').expect(200)).body.content).toContain('Welcome');
    expect(await history(user, api)).toEqual(['Initial version']);
  });

  it("another user's project is 404, and an action while a turn holds the lock is 409 PROJECTS.BUSY", async () => {
    const { user, id, api } = await ready();
    const stranger = newUser();
    expect((await t.http().post(`${api}/actions/delete`).set(stranger.auth).send({ path: 'src/App.tsx' })).status).toBe(404);
    expect((await t.http().get(`${api}/export.zip`).set(stranger.auth)).status).toBe(404);
    const lock = t.app.get<ProjectTurnLock>(TURN_LOCK, { strict: false });
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const turn = lock.run(id, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await running;
    try {
      const busy = await t.http().post(`${api}/actions/new-file`).set(user.auth).send({ path: 'src/while-busy.ts' });
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('PROJECTS.BUSY');
      expect((await read(user, api, 'src/while-busy.ts')).status).toBe(404);
    } finally {
      release();
      await turn;
    }
  });

  it('clean up removes build output and caches, keeps the files, and restarts the dev server', async () => {
    const { user, api } = await ready();
    for (const path of ['dist/index.js', '.eslintcache', 'src/keep.ts']) await t.http().post(`${api}/write-file`).set(user.auth).send({ path, content: 'x' }).expect(200);
    const cleaned = await t.http().post(`${api}/actions/clean-up`).set(user.auth).expect(200);
    expect(cleaned.body).toMatchObject({ status: 'running' });
    expect([...(cleaned.body.removed as string[])].sort()).toEqual(['.eslintcache', 'dist']);
    expect((await read(user, api, 'dist/index.js')).status).toBe(404);
    expect((await read(user, api, 'src/keep.ts').expect(200)).body.content).toBe('x');
  });

  it('exports the project as a zip, streamed, without installed packages, caches or secrets', async () => {
    const { user, api } = await ready();
    for (const path of ['node_modules/x/index.js', '.env.local', 'dist/a.js', 'src/extra.ts']) {
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path, content: 'x' }).expect(200);
    }
    const response = await t
      .http()
      .get(`${api}/export.zip`)
      .set(user.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="kiln-[\w-]+\.zip"$/);
    const names = await zipNames(response.body as Buffer);
    expect(names).toEqual(expect.arrayContaining(['package.json', 'src/App.tsx', 'src/extra.ts']));
    expect(names.filter((n) => n.includes('node_modules') || n.startsWith('.env') || n.startsWith('dist/'))).toEqual([]);
  });

  it('an export before the sandbox exists is 404 SANDBOX.NOT_FOUND, not a broken download', async () => {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'Empty' }).expect(201);
    const response = await t.http().get(`/api/sandbox/${body.id as string}/export.zip`).set(user.auth);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('SANDBOX.NOT_FOUND');
  });
});
