import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mergeTheme, type ProjectTurnLock, THEME_PRESETS, type Theme } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { TURN_LOCK } from '../tokens.js';
import { SseClient } from './testing/sse-client.js';

const STYLESHEET = `@import 'tailwindcss';\n\n:root {\n  --primary: oklch(0.205 0 0);\n}\n\n.dark {\n  --primary: oklch(0.922 0 0);\n}\n`;
const ocean = THEME_PRESETS.find((theme) => theme.name === 'Ocean') as Theme;

/** POST /api/sandbox/{id}/apply-theme (docs/sandbox-api.md): the theme builder's Apply, on the server. */
describe('apply-theme (HTTP)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ overrides: { sandboxHost: new InMemorySandboxHost() } });
  });
  afterAll(async () => {
    await t.close();
  });

  const baseUrl = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  /** A user's project with a sandbox and, unless null, this src/index.css saved as a version. */
  const ready = async (stylesheet: string | null = STYLESHEET): Promise<{ user: TestUser; id: string; api: string }> => {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'Themed' }).expect(201);
    const api = `/api/sandbox/${body.id as string}`;
    await t.http().post(`${api}/ensure`).set(user.auth).expect(200);
    if (stylesheet !== null) {
      await t.http().post(`${api}/write-file`).set(user.auth).send({ path: 'src/index.css', content: stylesheet }).expect(200);
      await t.http().post(`${api}/git/commit`).set(user.auth).send({ message: 'Add the stylesheet' }).expect(200);
    }
    return { user, id: body.id as string, api };
  };
  const css = async (user: TestUser, api: string) => (await t.http().get(`${api}/read-file`).query({ path: 'src/index.css' }).set(user.auth).expect(200)).body.content as string;
  const history = async (user: TestUser, api: string) =>
    ((await t.http().get(`${api}/git/history`).set(user.auth).expect(200)).body as Array<{ message: string; files_changed: string[] }>).map((c) => c.message);

  it('applies: src/index.css holds the merged theme, a version is saved, the feed hears the change; again is unchanged', async () => {
    const { user, api } = await ready();
    const feed = await SseClient.open(`${baseUrl()}${api}/events`, user.auth);
    try {
      await feed.next((e) => e.event === 'status');
      const response = await t.http().post(`${api}/apply-theme`).set(user.auth).send(ocean);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ outcome: 'applied', theme: 'Ocean', commit: { success: true, message: 'Apply theme Ocean', hash: expect.any(String) } });
      expect((await feed.next((e) => e.event === 'files-changed')).data).toEqual({ paths: ['src/index.css'], reason: 'write' });
    } finally {
      feed.close();
    }
    const content = await css(user, api);
    expect(content).toBe(mergeTheme(STYLESHEET, ocean).stylesheet);
    expect(content).toContain(`--primary: ${ocean.light['primary']};`);
    expect(content).toContain(`--primary: ${ocean.dark['primary']};`);
    const [latest] = (await t.http().get(`${api}/git/history`).set(user.auth).expect(200)).body as Array<{ message: string; files_changed: string[] }>;
    expect(latest).toMatchObject({ message: 'Apply theme Ocean', files_changed: ['src/index.css'] });

    const again = await t.http().post(`${api}/apply-theme`).set(user.auth).send(ocean).expect(200);
    expect(again.body).toEqual({ outcome: 'unchanged', theme: 'Ocean' });
    expect(await history(user, api)).toEqual(['Apply theme Ocean', 'Add the stylesheet', 'Initial version']);
  });

  it('keeps a stylesheet whose braces do not balance (kept-original), saving nothing', async () => {
    const broken = ':root {\n  --primary: red;\n';
    const { user, api } = await ready(broken);
    const response = await t.http().post(`${api}/apply-theme`).set(user.auth).send({ name: 'Mine', light: { primary: 'green' }, dark: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ outcome: 'kept-original', theme: 'Mine' });
    expect(await css(user, api)).toBe(broken);
    expect(await history(user, api)).toEqual(['Add the stylesheet', 'Initial version']);
  });

  it("is 404 PROJECTS.NOT_FOUND for another user's project and a malformed id, and leaves the stylesheet alone", async () => {
    const { user, api } = await ready();
    const stranger = newUser();
    const response = await t.http().post(`${api}/apply-theme`).set(stranger.auth).send(ocean);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    await t.http().post('/api/sandbox/not-a-uuid/apply-theme').set(user.auth).send(ocean).expect(404);
    expect(await css(user, api)).toBe(STYLESHEET);
  });

  it('is 404 SANDBOX.NOT_FOUND before ensure and SANDBOX.FILE_NOT_FOUND without src/index.css; 401 without a token', async () => {
    const user = newUser();
    const { body } = await t.http().post('/api/projects').set(user.auth).send({ name: 'No sandbox' }).expect(201);
    const before = await t.http().post(`/api/sandbox/${body.id as string}/apply-theme`).set(user.auth).send(ocean);
    expect(before.status).toBe(404);
    expect(before.body).toMatchObject({ code: 'SANDBOX.NOT_FOUND' });

    const bare = await ready(null);
    const missing = await t.http().post(`${bare.api}/apply-theme`).set(bare.user.auth).send(ocean);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'SANDBOX.FILE_NOT_FOUND', path: 'src/index.css' });

    await t.http().post(`${bare.api}/apply-theme`).send(ocean).expect(401);
  });

  it.each<[string, unknown, string]>([
    ['no name', { light: {}, dark: {} }, 'name: is required'],
    ['a blank name', { ...ocean, name: '  ' }, 'name: must not be blank'],
    ['light not an object', { ...ocean, light: 'blue' }, 'light: must be an object'],
    ['a value that breaks out of its declaration', { ...ocean, light: { primary: 'red; } body { color: red' } }, 'light: primary: must be a CSS value'],
    ['a bad variable name', { ...ocean, dark: { 'pri mary': 'red' } }, 'dark: has a bad variable name "pri mary"'],
    ['too many variables', { ...ocean, dark: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, 'red'])) }, 'dark: must have at most 100 variables'],
    ['a font URL with a quote', { ...ocean, fonts: ["https://x.example/a.css') ; @import url('evil"] }, 'fonts: must be http(s) stylesheet URLs'],
    ['too many fonts', { ...ocean, fonts: Array.from({ length: 11 }, () => 'https://fonts.example/a.css') }, 'fonts: must contain no more than 10 elements'],
    ['an unsafe radius', { ...ocean, radius: '1rem}' }, 'radius: must be a CSS value'],
    ['an unknown field', { ...ocean, path: 'src/other.css' }, 'path: is not allowed'],
  ])('is 400 VALIDATION_FAILED for %s, nothing written', async (_case, body, detail) => {
    const { user, api } = await ready();
    const response = await t.http().post(`${api}/apply-theme`).set(user.auth).send(body as object);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: expect.stringContaining(detail) });
    expect(await css(user, api)).toBe(STYLESHEET);
  });

  it('is 409 PROJECTS.BUSY while a turn holds the project, writing nothing; applies once the turn ends', async () => {
    const { user, id, api } = await ready();
    const lock = t.app.get<ProjectTurnLock>(TURN_LOCK, { strict: false });
    let started!: () => void;
    let release!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const turn = lock.run(id, async () => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await running;
    try {
      const busy = await t.http().post(`${api}/apply-theme`).set(user.auth).send(ocean);
      expect(busy.status).toBe(409);
      expect(busy.body).toEqual({ code: 'PROJECTS.BUSY', detail: 'This project is being changed right now (the assistant is working on it). Try again when it has finished.' });
      expect(await css(user, api)).toBe(STYLESHEET);
      expect(await history(user, api)).toEqual(['Add the stylesheet', 'Initial version']);
    } finally {
      release();
      await turn;
    }
    await t.http().post(`${api}/apply-theme`).set(user.auth).send(ocean).expect(200);
    expect((await history(user, api))[0]).toBe('Apply theme Ocean');
  });
});
