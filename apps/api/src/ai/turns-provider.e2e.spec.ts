import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeVendorServer, openAiStream } from '@kiln/adapters/testing';
import { type TestApp, newUser, startTestApp } from '../testing/e2e.js';
import { postStream } from './testing/post-sse.js';

// A turn through a configured model provider, end to end: OPENAI_* switch the API from the
// offline assistant to the AI SDK adapter, which talks to a local server speaking OpenAI's
// streaming wire format (a forced submit_plan call, then a task answered with tool calls).
describe('AI turns API with an OpenAI-compatible provider (local stand-in)', () => {
  let vendor: FakeVendorServer;
  let t: TestApp;

  beforeAll(async () => {
    vendor = await FakeVendorServer.start();
    t = await startTestApp({ env: { OPENAI_BASE_URL: `${vendor.url}/v1`, OPENAI_API_KEY: 'sk-local', OPENAI_MODEL: 'test-model', AI_REPAIR_ROUNDS: '0' } });
  });

  afterAll(async () => {
    await t.close();
    await vendor.close();
  });

  const base = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

  it('plans and runs a task through the provider: its tool calls change the project, one credit, one version', async () => {
    const user = newUser();
    expect((await t.http().get('/api/ai/model').set(user.auth).expect(200)).body).toEqual({ provider: '127.0.0.1', id: 'test-model', offline: false });
    const id = (await t.http().post('/api/projects').set(user.auth).send({ name: 'Gym' }).expect(201)).body.id as string;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    const app = (await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: 'src/App.tsx' }).set(user.auth).expect(200)).body.content as string;
    const heading = /<h1[^>]*>([^<]+)<\/h1>/.exec(app)?.[1];
    expect(heading).toBeDefined();

    vendor.reply(
      openAiStream([
        {
          tool: 'submit_plan',
          id: 'call_plan',
          input: { kind: 'edit', modules: [{ title: 'Rename', description: 'The heading', tasks: [{ title: 'Rename the heading', description: 'Steel Hall' }] }] },
        },
      ]),
    );
    vendor.reply(
      openAiStream([
        { text: 'Renaming the heading.' },
        { tool: 'edit_file', id: 'call_edit', input: { path: 'src/App.tsx', search: heading, replace: 'Steel Hall' } },
        { tool: 'write_file', id: 'call_write', input: { path: 'src/hall.ts', content: "export const hall = 'Steel Hall';\n" } },
      ]),
    );
    const turn = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'Call it Steel Hall', idempotency_key: 'steel' });
    expect(turn.status).toBe(200);
    const last = turn.events[turn.events.length - 1];
    expect(last).toMatchObject({ event: 'done', data: { status: 'kept', commit_hash: expect.stringMatching(/^[0-9a-f]+$/) } });
    expect(turn.events.filter((e) => e.event === 'operation').map((e) => e.data)).toEqual([
      { task_id: 'task-1', type: 'edit_file', path: 'src/App.tsx' },
      { task_id: 'task-1', type: 'write_file', path: 'src/hall.ts' },
    ]);

    // What went to the provider: the plan call forced submit_plan; the task call offered the file tools and the file's text.
    expect(vendor.requests).toHaveLength(2);
    expect(vendor.requests.map((r) => [r.path, r.headers['authorization'], r.body['model']])).toEqual([
      ['/v1/chat/completions', 'Bearer sk-local', 'test-model'],
      ['/v1/chat/completions', 'Bearer sk-local', 'test-model'],
    ]);
    expect(vendor.requests[0]?.body['tool_choice']).toEqual({ type: 'function', function: { name: 'submit_plan' } });
    const tools = (vendor.requests[1]?.body['tools'] as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(tools).toEqual(expect.arrayContaining(['write_file', 'edit_file', 'delete_file', 'rename_file', 'add_dependency', 'run_command']));
    expect(JSON.stringify(vendor.requests[1]?.body['messages'])).toContain(heading as string);

    const changed = (await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: 'src/App.tsx' }).set(user.auth).expect(200)).body.content as string;
    expect(changed).toContain('Steel Hall');
    expect((await t.http().get(`/api/sandbox/${id}/read-file`).query({ path: 'src/hall.ts' }).set(user.auth).expect(200)).body.content).toBe("export const hall = 'Steel Hall';\n");
    expect((await t.http().get('/api/usage').set(user.auth)).body.credits_remaining).toBe(4);
    const history = await t.http().get(`/api/sandbox/${id}/git/history`).set(user.auth).expect(200);
    expect(history.body[0]).toMatchObject({ message: 'Call it Steel Hall' });
  });

  it('a provider failure before any output refunds the credit and changes nothing', async () => {
    const user = newUser();
    const id = (await t.http().post('/api/projects').set(user.auth).send({ name: 'Gym' }).expect(201)).body.id as string;
    await t.http().post(`/api/sandbox/${id}/ensure`).set(user.auth).expect(200);
    vendor.reply(openAiStream([{ tool: 'submit_plan', id: 'p', input: { kind: 'edit', modules: [{ title: 'M', description: 'd', tasks: [{ title: 'T', description: 'd' }] }] } }]));
    // Overloaded on every attempt (the SDK retries twice): the provider's status comes through.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      vendor.reply((_request, response) => {
        response.writeHead(503, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'overloaded' } }));
      });
    }
    const turn = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { message: 'Anything', idempotency_key: 'fails' });
    const last = turn.events[turn.events.length - 1];
    expect(last).toMatchObject({ event: 'error', data: { code: 'AI.PROVIDER_FAILED', provider_status: 503 } });
    expect((await t.http().get('/api/usage').set(user.auth)).body.credits_remaining).toBe(5);
    expect((await t.http().get(`/api/sandbox/${id}/git/history`).set(user.auth).expect(200)).body).toHaveLength(1);
  });
});
