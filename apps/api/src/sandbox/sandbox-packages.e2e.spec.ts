import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { SseClient } from './testing/sse-client.js';
import { ScriptedSandboxHost } from './testing/scripted-sandbox-host.js';

/** The terminal's package installs through run-command (docs/sandbox-api.md "Package installs from the terminal"). */
describe('sandbox API: package installs from the terminal (HTTP)', () => {
  let t: TestApp;
  let host: ScriptedSandboxHost;

  beforeAll(async () => {
    host = new ScriptedSandboxHost();
    t = await startTestApp({ overrides: { sandboxHost: host } });
  });

  afterAll(async () => {
    await t.close();
  });

  const baseUrl = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  const ready = async (): Promise<{ user: TestUser; api: string }> => {
    const user = newUser();
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Packages' });
    expect(created.status).toBe(201);
    const api = `/api/sandbox/${created.body.id as string}`;
    await t.http().post(`${api}/ensure`).set(user.auth).expect(200);
    return { user, api };
  };

  it('npm install <pkg> updates package.json and installs through the host, streaming progress on the feed', async () => {
    const { user, api } = await ready();
    const feed = await SseClient.open(`${baseUrl()}${api}/events`, user.auth);
    try {
      await feed.next((e) => e.event === 'status');
      const run = await t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'npm install dayjs@^1.11.0 -D', command_id: 'term-1' });
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ exit_code: 0, stderr: '', timed_out: false, output_truncated: false, interrupted: false });
      expect(run.body.stdout).toContain('Adding dayjs@^1.11.0 to package.json (devDependencies)');
      expect((await feed.next((e) => e.event === 'command-exit')).data).toEqual({ command_id: 'term-1', exit_code: 0, timed_out: false });
      const lines = feed.events.filter((e) => e.event === 'command-output').map((e) => (e.data as { text: string }).text);
      expect(lines.join('')).toBe(run.body.stdout);
      expect((await feed.next((e) => (e.data as { reason?: string }).reason === 'command')).data).toEqual({ paths: [], reason: 'command' });
    } finally {
      feed.close();
    }
    const manifest = await t.http().get(`${api}/read-file`).query({ path: 'package.json' }).set(user.auth);
    expect(JSON.parse(manifest.body.content as string)).toMatchObject({ devDependencies: { 'dayjs': '^1.11.0' } });
  });

  it('refuses npm commands that would rewrite node_modules, saying what works instead', async () => {
    const { user, api } = await ready();
    const before = (await t.http().get(`${api}/read-file`).query({ path: 'package.json' }).set(user.auth)).body.content as string;
    const run = await t.http().post(`${api}/run-command`).set(user.auth).send({ command: 'npm update' });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ exit_code: 1, stdout: '', timed_out: false });
    expect(run.body.stderr).toContain('`npm update` would rewrite node_modules');
    expect(run.body.stderr).toContain('npm install <name>');
    expect((await t.http().get(`${api}/read-file`).query({ path: 'package.json' }).set(user.auth)).body.content).toBe(before);
  });
});
