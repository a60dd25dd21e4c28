import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { aiFailure } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { SseClient } from '../sandbox/testing/sse-client.js';
import { postStream, type StreamEvent } from './testing/post-sse.js';
import { planOf, ScriptedAiAssistant } from './testing/scripted-ai-assistant.js';

const APP = 'src/App.tsx';

describe('AI turns API (HTTP, scripted assistant)', () => {
  let t: TestApp;
  let assistant: ScriptedAiAssistant;
  let host: InMemorySandboxHost;

  beforeAll(async () => {
    assistant = new ScriptedAiAssistant();
    host = new InMemorySandboxHost();
    t = await startTestApp({ overrides: { aiAssistant: assistant, sandboxHost: host } });
  });

  afterAll(async () => {
    await t.close();
  });

  const base = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  let keys = 0;
  const send = (user: TestUser, projectId: string, body: Record<string, unknown>) =>
    postStream(`${base()}/api/projects/${projectId}/turns`, user.auth, { idempotency_key: `k-${++keys}`, ...body });
  const createProject = async (user: TestUser): Promise<string> => {
    const response = await t.http().post('/api/projects').set(user.auth).send({ name: 'Chat app' });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  const ready = async () => {
    const user = newUser();
    const id = await createProject(user);
    return { user, id };
  };
  const creditsOf = async (user: TestUser) => (await t.http().get('/api/usage').set(user.auth).expect(200)).body.credits_remaining as number;
  const names = (events: readonly StreamEvent[]) => events.map((e) => e.event);
  const lastOf = (events: readonly StreamEvent[]) => events[events.length - 1];

  it('streams a turn from turn to done kept: one credit, a commit with the prompt, files-changed on the feed', async () => {
    const { user, id } = await ready();
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    const feed = await SseClient.open(`${base()}/api/sandbox/${id}/events`, user.auth);
    assistant.answers.push({ text: 'Renaming.', operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Chores' }] });

    const reply = await send(user, id, { message: 'Call it Chores' });
    expect(reply.status).toBe(200);
    expect(reply.contentType).toBe('text/event-stream; charset=utf-8');
    expect(names(reply.events)).toEqual(['turn', 'phase', 'phase', 'plan', 'phase', 'credits', 'task', 'text', 'operation', 'task', 'checking', 'errors', 'phase', 'done']);
    const [turn] = reply.events;
    expect(turn?.data).toEqual({ turn_id: expect.any(String), message: 'Call it Chores' });
    expect(reply.events.filter((e) => e.event === 'phase').map((e) => e.data['phase'])).toEqual(['fetching', 'thinking', 'building', 'idle']);
    expect(reply.events.find((e) => e.event === 'plan')?.data).toEqual({
      kind: 'edit',
      modules: [{ id: 'm1', title: 'App', description: 'The app' }],
      tasks: [{ id: 't1', module_id: 'm1', title: 'Task 1', description: 'Step 1' }],
      cost: 1,
      replaces_app: false,
    });
    expect(reply.events.find((e) => e.event === 'credits')?.data).toEqual({ charged: 1, refunded: 0, credits_remaining: 4 });
    expect(reply.events.filter((e) => e.event === 'task').map((e) => e.data)).toEqual([
      { task_id: 't1', index: 0, title: 'Task 1', state: 'running' },
      { task_id: 't1', index: 0, title: 'Task 1', state: 'done' },
    ]);
    expect(reply.events.find((e) => e.event === 'text')?.data).toEqual({ task_id: 't1', text: 'Renaming.' });
    expect(reply.events.find((e) => e.event === 'operation')?.data).toEqual({ task_id: 't1', type: 'edit_file', path: APP });
    const done = lastOf(reply.events);
    expect(done).toEqual({ event: 'done', data: { status: 'kept', message: 'Changed 1 file.', commit_hash: expect.stringMatching(/^[0-9a-f]{40}$/) } });

    expect(await creditsOf(user)).toBe(4);
    const history = await t.http().get(`/api/sandbox/${id}/git/history`).set(user.auth).expect(200);
    expect(history.body[0]).toMatchObject({ hash: done?.data['commit_hash'], message: 'Call it Chores', files_changed: [APP] });
    const file = await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: APP }).set(user.auth).expect(200);
    expect(file.body.content).toContain('Chores');
    expect((await feed.next((e) => e.event === 'files-changed')).data).toEqual({ paths: [APP], reason: 'write' });
    feed.close();
    // The assistant got its context through the project's index, and the index follows the turn.
    expect(assistant.taskInputs[assistant.taskInputs.length - 1]?.files.map((f) => f.path)).toEqual(expect.arrayContaining([APP, 'package.json']));
    const found = await t.http().get('/api/vector/query').query({ query: 'Chores', project_id: id }).set(user.auth).expect(200);
    expect(found.body[0]).toMatchObject({ path: APP });

    const turns = await t.http().get(`/api/projects/${id}/turns`).set(user.auth).expect(200);
    expect(turns.body).toEqual([
      {
        id: turn?.data['turn_id'],
        message: 'Call it Chores',
        status: 'kept',
        reply: 'Renaming.',
        plan: expect.objectContaining({ kind: 'edit', cost: 1 }),
        outcome: 'Changed 1 file.',
        created_at: expect.stringMatching(/Z$/),
        commit_hash: done?.data['commit_hash'],
        failure_code: null,
      },
    ]);
  });

  it('a retried request with the same idempotency key replays the turn without charging again', async () => {
    const { user, id } = await ready();
    const body = { message: 'Hello', idempotency_key: 'retry-me' };
    const first = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, body);
    const again = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, body);
    expect(names(again.events)).toEqual(['turn', 'done']);
    expect(again.events[0]?.data['turn_id']).toBe(first.events[0]?.data['turn_id']);
    expect(await creditsOf(user)).toBe(4);
    const conflict = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { ...body, message: 'Other' });
    expect(conflict.status).toBe(409);
    expect(conflict.json).toMatchObject({ code: 'TURNS.IDEMPOTENCY_CONFLICT' });
  });

  it('answers 402 CREDITS.LIMIT_REACHED with limit_type credit as JSON, before any streaming, when no credit is left', async () => {
    const { user, id } = await ready();
    for (let i = 0; i < 5; i++) await t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', `spend-${i}`).expect(200);
    const reply = await send(user, id, { message: 'Change it' });
    expect(reply.status).toBe(402);
    expect(reply.contentType).toMatch(/^application\/json/);
    expect(reply.json).toMatchObject({ code: 'CREDITS.LIMIT_REACHED', limit_type: 'credit', detail: expect.any(String) });
    const turns = await t.http().get(`/api/projects/${id}/turns`).set(user.auth).expect(200);
    expect(turns.body).toEqual([]);
  });

  it('7 simultaneous messages to one project with 5 credits: they queue, 5 are kept and 2 answer 402', async () => {
    const { user, id } = await ready();
    const replies = await Promise.all(Array.from({ length: 7 }, (_, i) => send(user, id, { message: `Message ${i}` })));
    expect(replies.filter((r) => r.status === 200 && r.events[r.events.length - 1]?.data['status'] === 'kept')).toHaveLength(5);
    expect(replies.filter((r) => r.status === 402 && r.json?.['code'] === 'CREDITS.LIMIT_REACHED')).toHaveLength(2);
    expect(await creditsOf(user)).toBe(0);
    const turns = await t.http().get(`/api/projects/${id}/turns`).set(user.auth).expect(200);
    expect(turns.body.map((x: { status: string }) => x.status)).toEqual(Array(5).fill('kept'));
  });

  it("another user's project, an unknown one and a malformed id are 404 PROJECTS.NOT_FOUND", async () => {
    const { id } = await ready();
    const stranger = newUser();
    for (const projectId of [id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const reply = await send(stranger, projectId, { message: 'Hi' });
      expect(reply.status).toBe(404);
      expect(reply.json).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    }
    await t.http().get(`/api/projects/${id}/turns`).set(stranger.auth).expect(404);
    const accept = await t.http().post(`/api/projects/${id}/turns/00000000-0000-4000-8000-000000000000/accept`).set(stranger.auth);
    expect(accept.body).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
    await t.http().post(`/api/projects/${id}/turns`).send({ message: 'Hi', idempotency_key: 'x' }).expect(401);
  });

  it.each([
    ['no message', {}, 'message: is required'],
    ['a blank message', { message: '   ', idempotency_key: 'k' }, 'message: must not be blank'],
    ['a message that is not text', { message: 42, idempotency_key: 'k' }, 'message: must be a string'],
    ['a message over 20 000 characters', { message: 'x'.repeat(20_001), idempotency_key: 'k' }, 'message: must be shorter than or equal to 20000 characters'],
    ['no idempotency key', { message: 'Hi' }, 'idempotency_key: is required'],
    ['a padded idempotency key', { message: 'Hi', idempotency_key: ' padded ' }, 'idempotency_key: must be printable ASCII characters without leading or trailing spaces'],
    ['auto_run that is not a boolean', { message: 'Hi', idempotency_key: 'k', auto_run: 'yes' }, 'auto_run: must be a boolean value'],
    ['an unknown field', { message: 'Hi', idempotency_key: 'k', extra: 1 }, 'extra: is not allowed'],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_label, body, problem) => {
    const { user, id } = await ready();
    const response = await t.http().post(`/api/projects/${id}/turns`).set(user.auth).send(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: expect.stringContaining(problem) });
  });

  it('a plan of several tasks waits for approval; accept runs it for one credit per task', async () => {
    const { user, id } = await ready();
    assistant.plans.push(planOf(3));
    const waiting = await send(user, id, { message: 'Build a todo list' });
    expect(waiting.status).toBe(200);
    expect(names(waiting.events)).toEqual(['turn', 'phase', 'phase', 'plan', 'phase', 'awaiting_approval']);
    const turnId = waiting.events[0]?.data['turn_id'] as string;
    expect(lastOf(waiting.events)?.data).toEqual({ turn_id: turnId, cost: 3 });
    expect(await creditsOf(user)).toBe(5);
    expect((await t.http().get(`/api/projects/${id}/turns`).set(user.auth)).body[0]).toMatchObject({ id: turnId, status: 'awaiting_approval' });

    const accepted = await postStream(`${base()}/api/projects/${id}/turns/${turnId}/accept`, user.auth, {});
    expect(accepted.status).toBe(200);
    expect(accepted.events.filter((e) => e.event === 'credits').map((e) => e.data['charged'])).toEqual([1, 2, 3]);
    expect(lastOf(accepted.events)).toMatchObject({ event: 'done', data: { status: 'kept' } });
    expect(await creditsOf(user)).toBe(2);

    const again = await t.http().post(`/api/projects/${id}/turns/${turnId}/accept`).set(user.auth);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'TURNS.NOT_AWAITING_APPROVAL', status: 'kept' });
    const cancelLate = await t.http().post(`/api/projects/${id}/turns/${turnId}/cancel`).set(user.auth);
    expect(cancelLate.status).toBe(409);
  });

  it('cancel drops a waiting plan: { success: true }, nothing charged, accept then refused', async () => {
    const { user, id } = await ready();
    assistant.plans.push(planOf(2));
    const waiting = await send(user, id, { message: 'Build a blog' });
    const turnId = waiting.events[0]?.data['turn_id'] as string;
    const cancelled = await t.http().post(`/api/projects/${id}/turns/${turnId}/cancel`).set(user.auth);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ success: true });
    expect(await creditsOf(user)).toBe(5);
    expect((await t.http().get(`/api/projects/${id}/turns`).set(user.auth)).body[0]).toMatchObject({ status: 'cancelled' });
    expect((await t.http().post(`/api/projects/${id}/turns/${turnId}/accept`).set(user.auth)).status).toBe(409);
    for (const bad of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const unknown = await t.http().post(`/api/projects/${id}/turns/${bad}/cancel`).set(user.auth);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'TURNS.NOT_FOUND' });
    }
  });

  it('a provider failure ends the stream with an error event and refunds the credit', async () => {
    const { user, id } = await ready();
    assistant.answers.push({ error: aiFailure('AI.PROVIDER_FAILED', 'Overloaded', 529) });
    const reply = await send(user, id, { message: 'Change it' });
    expect(reply.status).toBe(200);
    expect(lastOf(reply.events)).toEqual({ event: 'error', data: { code: 'AI.PROVIDER_FAILED', detail: 'Overloaded', provider_status: 529 } });
    expect(reply.events.filter((e) => e.event === 'credits').map((e) => e.data)).toEqual([
      { charged: 1, refunded: 0, credits_remaining: 4 },
      { charged: 1, refunded: 1, credits_remaining: 5 },
    ]);
    expect(await creditsOf(user)).toBe(5);
  });

  it('a turn that breaks the build and is not repaired is reverted: files back, credits refunded, files-changed []', async () => {
    const { user, id } = await ready();
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    host.scriptErrors(id, []);
    const before = (await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: APP }).set(user.auth)).body.content as string;
    const feed = await SseClient.open(`${base()}/api/sandbox/${id}/events`, user.auth);
    const broken = () => {
      host.scriptErrors(id, [{ message: "Cannot find name 'x'.", file: APP, line: 1, column: 1, severity: 'error' }]);
      return { operations: [{ type: 'write_file' as const, path: APP, content: 'x' }] };
    };
    assistant.answers.push(broken, {}, {});
    const reply = await send(user, id, { message: 'Break it' });
    expect(reply.events.filter((e) => e.event === 'checking').map((e) => e.data['round'])).toEqual([0, 1, 2]);
    expect(reply.events.find((e) => e.event === 'errors')?.data).toEqual({
      round: 0,
      error_count: 1,
      warning_count: 0,
      errors: [{ message: "Cannot find name 'x'.", file: APP, line: 1, column: 1, severity: 'error' }],
      status: 'checked',
    });
    expect(lastOf(reply.events)).toMatchObject({ event: 'done', data: { status: 'reverted', message: expect.stringContaining('were undone') } });
    expect((await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: APP }).set(user.auth)).body.content).toBe(before);
    expect(await creditsOf(user)).toBe(5);
    expect((await feed.next((e) => e.event === 'files-changed')).data).toEqual({ paths: [], reason: 'write' });
    feed.close();
  });
});

describe('AI turns API (HTTP, offline assistant)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  const base = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  it('builds "Chores" with the offline assistant: a four-task plan, accepted, kept; then an edit in one credit', async () => {
    const user = newUser();
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Chores' }).expect(201);
    const id = created.body.id as string;
    const url = `${base()}/api/projects/${id}/turns`;
    const waiting = await postStream(url, user.auth, { message: 'Build a todo list app called Chores', idempotency_key: 'build' });
    const plan = waiting.events.find((e) => e.event === 'plan')?.data as { cost: number; tasks: unknown[] };
    expect(plan.cost).toBe(plan.tasks.length);
    expect(plan.cost).toBeGreaterThan(1);
    const turnId = waiting.events[0]?.data['turn_id'] as string;
    const built = await postStream(`${url}/${turnId}/accept`, user.auth, {});
    expect(built.events[built.events.length - 1]).toMatchObject({ event: 'done', data: { status: 'kept' } });
    const usage = await t.http().get('/api/usage').set(user.auth).expect(200);
    expect(usage.body.credits_remaining).toBe(5 - plan.cost);
    const tree = await t.http().get(`/api/sandbox/${id}/get-tree`).set(user.auth).expect(200);
    expect(JSON.stringify(tree.body)).toContain('src');

    const edit = await postStream(url, user.auth, { message: 'Change the title to Errands', idempotency_key: 'edit' });
    expect(edit.events[edit.events.length - 1]).toMatchObject({ event: 'done', data: { status: 'kept' } });
    expect((await t.http().get('/api/usage').set(user.auth)).body.credits_remaining).toBe(4 - plan.cost);
    const history = await t.http().get(`/api/sandbox/${id}/git/history`).set(user.auth).expect(200);
    expect(history.body.slice(0, 2).map((c: { message: string }) => c.message)).toEqual(['Change the title to Errands', 'Build a todo list app called Chores']);
  });

  it('a request the offline assistant cannot do is declined before anything is charged (AI.DECLINED), and the history says so', async () => {
    const user = newUser();
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Chores' }).expect(201);
    const id = created.body.id as string;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    // An app already (on the bare starter any request builds a new app).
    await t.http().post(`/api/sandbox/${id}/write-file`).set(user.auth).send({ path: 'src/site.ts', content: "export const site = { name: 'Chores' };\n" }).expect(200);
    const declined = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'Make the buttons wiggle when I hover them', idempotency_key: 'wiggle' });
    expect(declined.status).toBe(200);
    const last = declined.events[declined.events.length - 1];
    expect(last).toEqual({ event: 'error', data: { code: 'AI.DECLINED', detail: expect.stringContaining('I’m not sure what to change.') } });
    expect(declined.events.some((e) => e.event === 'credits')).toBe(false);
    expect((await t.http().get('/api/usage').set(user.auth)).body.credits_remaining).toBe(5);
    const turns = await t.http().get(`/api/projects/${id}/turns`).set(user.auth).expect(200);
    expect(turns.body).toEqual([
      expect.objectContaining({
        status: 'failed',
        failure_code: 'AI.DECLINED',
        reply: expect.stringContaining('Configure an AI provider'),
        outcome: 'Nothing was changed, and no credit was used.',
      }),
    ]);
  });
});
