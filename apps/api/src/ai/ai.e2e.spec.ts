import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { aiFailure } from '@kiln/domain';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { postStream } from './testing/post-sse.js';
import { planOf, ScriptedAiAssistant } from './testing/scripted-ai-assistant.js';

describe('AI helper routes (HTTP)', () => {
  let t: TestApp;
  let offline: TestApp;
  let assistant: ScriptedAiAssistant;
  let user: TestUser;

  beforeAll(async () => {
    assistant = new ScriptedAiAssistant();
    t = await startTestApp({ overrides: { aiAssistant: assistant } });
    offline = await startTestApp();
    user = newUser();
  });

  afterAll(async () => {
    await t.close();
    await offline.close();
  });

  const url = (app: TestApp, path: string) => `http://127.0.0.1:${(app.app.getHttpServer().address() as AddressInfo).port}${path}`;

  it('GET /api/ai/model names the model; the default is the offline generator', async () => {
    expect((await t.http().get('/api/ai/model').set(user.auth).expect(200)).body).toEqual({ provider: 'scripted', id: 'scripted-1', offline: true });
    expect((await offline.http().get('/api/ai/model').set(user.auth).expect(200)).body).toEqual({ provider: 'offline', id: 'kiln-offline-1', offline: true });
    await t.http().get('/api/ai/model').expect(401);
  });

  describe('enhance-prompt', () => {
    it('answers { prompt }', async () => {
      const response = await t.http().post('/api/ai/enhance-prompt').set(user.auth).send({ prompt: 'a todo app', template_id: 'my-own-template' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ prompt: 'Enhanced for my-own-template: a todo app' });
      // A catalog template shapes the answer around it (templates.e2e.spec.ts has the others).
      const blank = await t.http().post('/api/ai/enhance-prompt').set(user.auth).send({ prompt: 'a todo app', template_id: 'blank' });
      expect(blank.body).toEqual({ prompt: 'Start from the Blank template (an empty page) and build the whole app. Enhanced for blank: a todo app' });
    });

    it('with the offline assistant, rewrites a request into a fuller one', async () => {
      const response = await offline.http().post('/api/ai/enhance-prompt').set(user.auth).send({ prompt: 'a todo app called Chores' });
      expect(response.status).toBe(200);
      expect(response.body.prompt).toContain('Chores');
      expect(response.body.prompt.length).toBeGreaterThan('a todo app called Chores'.length);
    });

    it('refuses a missing or blank prompt and unknown fields', async () => {
      for (const [body, problem] of [
        [{}, 'prompt: is required'],
        [{ prompt: ' ' }, 'prompt: must not be blank'],
        [{ prompt: 'x', model: 'gpt' }, 'model: is not allowed'],
      ] as const) {
        const response = await t.http().post('/api/ai/enhance-prompt').set(user.auth).send(body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: expect.stringContaining(problem) });
      }
    });

    it('a provider failure is 502 AI.PROVIDER_FAILED', async () => {
      assistant.failure = aiFailure('AI.PROVIDER_FAILED', 'Rate limited', 429);
      try {
        const response = await t.http().post('/api/ai/enhance-prompt').set(user.auth).send({ prompt: 'x' });
        expect(response.status).toBe(502);
        expect(response.body).toEqual({ code: 'AI.PROVIDER_FAILED', detail: 'Rate limited', provider_status: 429 });
      } finally {
        assistant.failure = null;
      }
    });
  });

  describe('summarize', () => {
    it('answers { summary }; system messages and `system` join the instruction', async () => {
      const response = await t
        .http()
        .post('/api/ai/summarize')
        .set(user.auth)
        .send({
          messages: [
            { role: 'system', content: 'Be short' },
            { role: 'user', content: 'Build a todo app' },
            { role: 'assistant', content: 'Done' },
          ],
          instruction: 'the data model',
          system: 'You are Kiln',
        });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ summary: 'Summary of 2 messages (You are Kiln\n\nBe short\n\nthe data model)' });
    });

    it('with the offline assistant, keeps the requests', async () => {
      const response = await offline
        .http()
        .post('/api/ai/summarize')
        .set(user.auth)
        .send({ messages: [{ role: 'user', content: 'Build a todo app called Chores.' }, { role: 'assistant', content: 'Built it.' }] });
      expect(response.status).toBe(200);
      expect(response.body.summary).toContain('First request: Build a todo app called Chores.');
    });

    it('refuses bad messages', async () => {
      for (const [body, problem] of [
        [{}, 'messages: is required'],
        [{ messages: [] }, 'messages: must contain at least 1 elements'],
        [{ messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role: must be one of the following values'],
        [{ messages: [{ role: 'user' }] }, 'messages.0.content: is required'],
      ] as const) {
        const response = await t.http().post('/api/ai/summarize').set(user.auth).send(body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: expect.stringContaining(problem) });
      }
    });
  });

  describe('query', () => {
    const messages = [
      { role: 'system', content: 'You help people build apps.' },
      { role: 'user', content: 'Build a notes app.' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'What can you build?' },
    ];

    it('answers { content, model } without stream, from the assistant’s completion', async () => {
      assistant.completionInputs.length = 0;
      const response = await t
        .http()
        .post('/api/ai/query')
        .set(user.auth)
        .send({ messages, model: 'scripted-1', temperature: 0.2, system: 'Be brief.', tools: [{ name: 'x', cache_control: { type: 'ephemeral' } }], response_format: { type: 'text' } });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ content: 'Answer (text) to: What can you build?', model: 'scripted-1' });
      // System messages and `system` become the system prompt; tools are not passed on.
      expect(assistant.completionInputs).toHaveLength(1);
      const input = assistant.completionInputs[0];
      expect(input?.messages).toEqual(messages.slice(1));
      expect(input?.system).toBe('Be brief.\n\nYou help people build apps.');
      expect(input?.temperature).toBe(0.2);
      expect(input?.responseFormat).toBe('text');
      expect(input).not.toHaveProperty('tools');
    });

    it('asks for JSON when response_format is json_object or json_schema', async () => {
      for (const type of ['json_object', 'json_schema']) {
        const response = await t.http().post('/api/ai/query').set(user.auth).send({ messages, response_format: { type } }).expect(200);
        expect(response.body.content).toBe('Answer (json) to: What can you build?');
      }
    });

    it('streams chunk {text} events then complete with the whole content when stream is true', async () => {
      const reply = await postStream(url(t, '/api/ai/query'), user.auth, { messages, stream: true });
      expect(reply.status).toBe(200);
      expect(reply.contentType).toBe('text/event-stream; charset=utf-8');
      const chunks = reply.events.filter((e) => e.event === 'chunk');
      expect(chunks.length).toBeGreaterThan(1);
      expect(reply.events.map((e) => e.event)).toEqual([...chunks.map(() => 'chunk'), 'complete']);
      expect(chunks.map((c) => c.data['text']).join('')).toBe('Answer (text) to: What can you build?');
      expect(reply.events.at(-1)?.data).toEqual({ content: 'Answer (text) to: What can you build?' });
    });

    it('the offline assistant answers what it can build, in text or as JSON { answer }', async () => {
      const plain = await offline.http().post('/api/ai/query').set(user.auth).send({ messages }).expect(200);
      expect(plain.body.model).toBe('kiln-offline-1');
      expect(plain.body.content).toContain('offline assistant');
      expect(plain.body.content).toContain('kanban board');
      const json = await offline.http().post('/api/ai/query').set(user.auth).send({ messages, model: 'kiln-offline-1', response_format: { type: 'json_object' } }).expect(200);
      expect(JSON.parse(json.body.content as string)).toEqual({ answer: plain.body.content });
      const streamed = await postStream(url(offline, '/api/ai/query'), user.auth, { messages: [{ role: 'user', content: 'Build a blog about hiking' }], stream: true });
      const complete = streamed.events.at(-1);
      expect(complete?.event).toBe('complete');
      expect(streamed.events.filter((e) => e.event === 'chunk').map((c) => c.data['text']).join('')).toBe(complete?.data['content']);
      expect(complete?.data['content']).toMatch(/^I would build Hiking Journal, a blog/);
      const other = await offline.http().post('/api/ai/query').set(user.auth).send({ messages: [{ role: 'user', content: 'What is the capital of France?' }] }).expect(200);
      expect(other.body.content).toContain('my conversation abilities are limited');
    });

    it('a provider failure is 502 without stream, and an error event with it', async () => {
      assistant.failure = aiFailure('AI.PROVIDER_FAILED', 'Down');
      try {
        const plain = await t.http().post('/api/ai/query').set(user.auth).send({ messages });
        expect(plain.status).toBe(502);
        expect(plain.body).toMatchObject({ code: 'AI.PROVIDER_FAILED', detail: 'Down' });
        const streamed = await postStream(url(t, '/api/ai/query'), user.auth, { messages, stream: true });
        expect(streamed.events).toEqual([
          { event: 'chunk', data: { text: 'Partial' } },
          { event: 'error', data: { code: 'AI.PROVIDER_FAILED', detail: 'Down' } },
        ]);
      } finally {
        assistant.failure = null;
      }
    });

    it('refuses bad bodies, another model and unknown response formats (also when streaming)', async () => {
      for (const [body, problem] of [
        [{ messages, temperature: 3 }, 'temperature: must not be greater than 2'],
        [{ messages, stream: 'yes' }, 'stream: must be a boolean value'],
        [{ messages, tools: 'x' }, 'tools: must be an array'],
        [{ messages, model: 'gpt-4o' }, 'model: must be the configured model (scripted-1) or left out'],
        [{ messages, model: 'gpt-4o', stream: true }, 'model: must be the configured model (scripted-1) or left out'],
        [{ messages, response_format: { type: 'xml' } }, 'response_format: type must be one of text, json_object, json_schema'],
      ] as const) {
        const response = await t.http().post('/api/ai/query').set(user.auth).send(body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: expect.stringContaining(problem) });
      }
    });
  });

  describe('stream-modules and stream-tasks', () => {
    const project = async (app: TestApp, owner: TestUser) => (await app.http().post('/api/projects').set(owner.auth).send({ name: 'Plans' }).expect(201)).body.id as string;

    it('stream the plan (modules, tasks), then done with the whole plan — free, nothing applied', async () => {
      const owner = newUser();
      const id = await project(t, owner);
      assistant.plans.push(planOf(2), planOf(2));
      const modules = await postStream(url(t, '/api/ai/stream-modules'), owner.auth, { prompt: 'Build a blog', project_id: id });
      expect(modules.events.map((e) => e.event)).toEqual(['module', 'done']);
      expect(modules.events[0]?.data).toEqual({ id: 'm1', title: 'App', description: 'The app' });
      const tasks = await postStream(url(t, '/api/ai/stream-tasks'), owner.auth, { prompt: 'Build a blog', project_id: id });
      expect(tasks.events.map((e) => e.event)).toEqual(['module', 'task', 'task', 'done']);
      expect(tasks.events[1]?.data).toEqual({ id: 't1', module_id: 'm1', title: 'Task 1', description: 'Step 1' });
      expect(tasks.events[3]?.data).toEqual({
        kind: 'build',
        modules: [{ id: 'm1', title: 'App', description: 'The app' }],
        tasks: [
          { id: 't1', module_id: 'm1', title: 'Task 1', description: 'Step 1' },
          { id: 't2', module_id: 'm1', title: 'Task 2', description: 'Step 2' },
        ],
        cost: 2,
      });
      expect((await t.http().get('/api/usage').set(owner.auth)).body.credits_remaining).toBe(5);
    });

    it('plans with the offline assistant from the project files', async () => {
      const owner = newUser();
      const id = await project(offline, owner);
      await offline.http().post(`/api/sandbox/${id}/ensure`).set(owner.auth).expect(200);
      const reply = await postStream(url(offline, '/api/ai/stream-tasks'), owner.auth, { prompt: 'Build a todo list app called Chores', project_id: id });
      const done = reply.events[reply.events.length - 1];
      expect(done?.event).toBe('done');
      expect((done?.data['tasks'] as unknown[]).length).toBeGreaterThan(1);
      expect(reply.events.filter((e) => e.event === 'task')).toHaveLength((done?.data['tasks'] as unknown[]).length);
    });

    it('a failed plan is an error event; another user’s project is 404; a bad project id is 400', async () => {
      const owner = newUser();
      const id = await project(t, owner);
      assistant.plans.push(aiFailure('AI.PROVIDER_FAILED', 'No plan'));
      const failed = await postStream(url(t, '/api/ai/stream-tasks'), owner.auth, { prompt: 'x', project_id: id });
      expect(failed.events).toEqual([{ event: 'error', data: { code: 'AI.PROVIDER_FAILED', detail: 'No plan' } }]);
      const stranger = await postStream(url(t, '/api/ai/stream-modules'), newUser().auth, { prompt: 'x', project_id: id });
      expect(stranger.status).toBe(404);
      expect(stranger.json).toMatchObject({ code: 'PROJECTS.NOT_FOUND' });
      const bad = await postStream(url(t, '/api/ai/stream-modules'), owner.auth, { prompt: 'x', project_id: 'nope' });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: 'VALIDATION_FAILED', detail: 'project_id: must be a project id' });
    });
  });

  it('limits each user to AI_RATE_LIMIT_PER_MINUTE helper requests: then 429 AI.RATE_LIMITED with Retry-After; turns and the model are not counted', async () => {
    const limited = await startTestApp({ env: { AI_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const busy = newUser();
      expect((await limited.http().post('/api/ai/enhance-prompt').set(busy.auth).send({ prompt: 'a' })).status).toBe(200);
      expect((await limited.http().post('/api/ai/summarize').set(busy.auth).send({ messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);
      expect((await limited.http().post('/api/ai/query').set(busy.auth).send({ messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);
      const refused = await limited.http().post('/api/ai/enhance-prompt').set(busy.auth).send({ prompt: 'a' });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('20');
      expect(refused.body).toEqual({ code: 'AI.RATE_LIMITED', detail: 'Too many AI requests. Please wait 20 s and try again.', retry_after_seconds: 20 });
      const stream = await postStream(url(limited, '/api/ai/stream-tasks'), busy.auth, { prompt: 'x', project_id: '00000000-0000-4000-8000-000000000000' });
      expect(stream.status).toBe(429);
      // The model route is free of the limit; another user has a bucket of their own.
      await limited.http().get('/api/ai/model').set(busy.auth).expect(200);
      expect((await limited.http().post('/api/ai/enhance-prompt').set(newUser().auth).send({ prompt: 'a' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
