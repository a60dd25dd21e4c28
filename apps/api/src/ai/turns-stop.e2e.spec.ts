import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { postStream } from './testing/post-sse.js';
import { planOf, ScriptedAiAssistant } from './testing/scripted-ai-assistant.js';

const APP = 'src/App.tsx';
const STOPPED_ONE = 'Stopped. Your app is as it was before this message; 1 credit refunded.';

describe('AI turns API: Stop, and a turn followed after a reload (issue #14)', () => {
  let t: TestApp;
  let assistant: ScriptedAiAssistant;

  beforeAll(async () => {
    assistant = new ScriptedAiAssistant();
    t = await startTestApp({ overrides: { aiAssistant: assistant, sandboxHost: new InMemorySandboxHost() } });
  });

  afterAll(async () => {
    await t.close();
  });

  const base = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  let keys = 0;
  const ready = async () => {
    const user = newUser();
    const response = await t.http().post('/api/projects').set(user.auth).send({ name: 'Chat app' });
    expect(response.status).toBe(201);
    const id = response.body.id as string;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    return { user, id };
  };
  const creditsOf = async (user: TestUser) => (await t.http().get('/api/usage').set(user.auth).expect(200)).body.credits_remaining as number;
  const turnsOf = async (user: TestUser, id: string) => (await t.http().get(`/api/projects/${id}/turns`).set(user.auth).expect(200)).body as Record<string, unknown>[];

  /** Starts a turn whose second task waits until it is stopped; resolves once it waits there. */
  const startHeld = async (user: TestUser, id: string) => {
    let reached: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (reached = resolve));
    assistant.plans.push({ ...planOf(2), kind: 'edit' });
    assistant.answers.push({ operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Half done' }] });
    assistant.answers.push(() => {
      reached();
      return { text: 'Working…', untilStopped: true };
    });
    const stream = postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'Two steps', idempotency_key: `stop-${++keys}`, auto_run: true });
    await held;
    const [turn] = await turnsOf(user, id);
    return { stream, turnId: turn?.['id'] as string };
  };

  it('POST …/turns/:turnId/stop ends a running turn: files back, the unfinished task refunded, the stream ends done reverted', async () => {
    const { user, id } = await ready();
    const before = (await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: APP }).set(user.auth).expect(200)).body.content as string;
    const { stream, turnId } = await startHeld(user, id);
    // After a reload the chat reads the turn list: the turn is still running.
    expect(await turnsOf(user, id)).toEqual([expect.objectContaining({ id: turnId, status: 'running', outcome: null })]);
    expect(await creditsOf(user)).toBe(3);

    const stopped = await t.http().post(`/api/projects/${id}/turns/${turnId}/stop`).set(user.auth);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ id: turnId, status: 'reverted', outcome: STOPPED_ONE, commit_hash: null });

    const reply = await stream;
    expect(reply.events[reply.events.length - 1]).toEqual({ event: 'done', data: { status: 'reverted', message: STOPPED_ONE } });
    expect(reply.events.filter((e) => e.event === 'credits').map((e) => e.data)).toEqual([
      { charged: 1, refunded: 0, credits_remaining: 4 },
      { charged: 2, refunded: 0, credits_remaining: 3 },
      { charged: 2, refunded: 1, credits_remaining: 4 },
    ]);
    const file = await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: APP }).set(user.auth).expect(200);
    expect(file.body.content).toBe(before);
    expect(await creditsOf(user)).toBe(4);
    // The turn list (what a reloaded chat polls) shows the end.
    expect(await turnsOf(user, id)).toEqual([expect.objectContaining({ id: turnId, status: 'reverted', outcome: STOPPED_ONE })]);

    // Stopping again, or a turn that has ended, answers the turn as it is.
    const again = await t.http().post(`/api/projects/${id}/turns/${turnId}/stop`).set(user.auth);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'reverted', outcome: STOPPED_ONE });
    expect(await creditsOf(user)).toBe(4);
  });

  it("another user's project and unknown turns are 404", async () => {
    const { user, id } = await ready();
    const { stream, turnId } = await startHeld(user, id);
    const stranger = newUser();
    const foreign = await t.http().post(`/api/projects/${id}/turns/${turnId}/stop`).set(stranger.auth);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const unknown = await t.http().post(`/api/projects/${id}/turns/${bad}/stop`).set(user.auth);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'TURNS.NOT_FOUND' });
    }
    expect((await turnsOf(user, id))[0]).toMatchObject({ status: 'running' });
    await t.http().post(`/api/projects/${id}/turns/${turnId}/stop`).set(user.auth).expect(200);
    await stream;
  });

  it('a new-app plan on a project with an app is declined free, and "start over" waits for approval with replaces_app', async () => {
    const { user, id } = await ready();
    assistant.answers.push({ operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Recipes' }] });
    const first = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'A recipe app', idempotency_key: `app-${++keys}` });
    expect(first.events[first.events.length - 1]).toMatchObject({ event: 'done', data: { status: 'kept' } });

    assistant.plans.push(planOf(2));
    const edit = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'save my favourite recipes with a heart button', idempotency_key: `app-${++keys}`, auto_run: true });
    const declined = edit.events[edit.events.length - 1];
    expect(declined).toMatchObject({ event: 'error', data: { code: 'AI.DECLINED', detail: expect.stringContaining("I can't do that as an edit of your app yet") } });
    expect(edit.events.some((e) => e.event === 'credits')).toBe(false);
    expect(await creditsOf(user)).toBe(4);

    assistant.plans.push(planOf(2));
    const fresh = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'Start over with a new app: a quiz', idempotency_key: `app-${++keys}`, auto_run: true });
    expect(fresh.events.find((e) => e.event === 'plan')?.data).toMatchObject({ kind: 'build', cost: 2, replaces_app: true });
    expect(fresh.events[fresh.events.length - 1]).toMatchObject({ event: 'awaiting_approval', data: { cost: 2 } });
    const turns = await turnsOf(user, id);
    expect(turns[turns.length - 1]).toMatchObject({ status: 'awaiting_approval', plan: { kind: 'build', replaces_app: true } });
    expect(await creditsOf(user)).toBe(4);
  });
});
