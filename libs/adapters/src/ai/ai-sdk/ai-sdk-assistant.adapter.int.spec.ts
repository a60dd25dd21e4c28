// The AI SDK adapters against local servers that speak Anthropic's and OpenAI's streaming wire
// formats: what we send (model, system, tools, cache control) and what we make of the answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { AssistantEvent, CompletionEvent, PlanEvent, TaskInput } from '@kiln/domain';
import { collect, streamProblems } from '@kiln/domain/testing';
import { OfflineAiAssistant } from '@kiln/offline-assistant';
import { AiCallFailed } from './ai-sdk-assistant.adapter.js';
import { JSON_ANSWER_INSTRUCTION, TASK_SYSTEM_PROMPT } from './prompts.js';
import { createAiAssistant, createAnthropicAssistant, createOpenAiCompatibleAssistant } from './providers.js';
import { anthropicStream, FakeVendorServer, json, openAiStream } from './testing/fake-vendor-server.js';

const TOOLS = ['write_file', 'edit_file', 'delete_file', 'rename_file', 'add_dependency', 'run_command'];

const taskInput = (over: Partial<TaskInput> = {}): TaskInput => ({
  prompt: 'Rename the app to Steel Hall and add a FAQ',
  tree: ['index.html', 'src/App.tsx', 'src/site.ts'],
  files: [{ path: 'src/site.ts', content: "export const site = { name: 'Iron Hall' };\n" }],
  history: [
    { role: 'user', content: 'Build a landing page for my gym' },
    { role: 'assistant', content: 'Done.' },
  ],
  ...over,
});

const operations = (events: readonly AssistantEvent[]) => events.flatMap((e) => (e.type === 'operation' ? [e.operation] : []));
const text = (events: readonly (AssistantEvent | PlanEvent | CompletionEvent)[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

describe('Anthropic adapter (Messages API over SSE)', () => {
  let server: FakeVendorServer;
  const assistant = () => createAnthropicAssistant({ apiKey: 'sk-ant-test', model: 'claude-test-model', baseURL: `${server.url}/v1`, maxRetries: 0 });

  beforeAll(async () => {
    server = await FakeVendorServer.start();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  it('sends the cached system prompt and tools, and streams text and file operations back', async () => {
    server.reply(
      anthropicStream(
        [
          { text: 'I will rename the app and add an FAQ section.' },
          { tool: 'edit_file', id: 'toolu_1', input: { path: 'src/site.ts', search: "name: 'Iron Hall'", replace: "name: 'Steel Hall'" }, pieces: 4 },
          { tool: 'write_file', id: 'toolu_2', input: { path: './src/components/Faq.tsx', content: 'export function Faq() {\n  return null;\n}\n' } },
        ],
        { usage: { cache_creation_input_tokens: 900, cache_read_input_tokens: 0 } },
      ),
    );
    const events = await collect(assistant().runTask(taskInput()));

    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe('sk-ant-test');
    const body = request?.body ?? {};
    expect(body['model']).toBe('claude-test-model');
    expect(body['stream']).toBe(true);
    expect(body['system']).toEqual([{ type: 'text', text: TASK_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }]);
    const tools = body['tools'] as { name: string; input_schema: { required?: string[] }; cache_control?: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    expect(tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(tools.slice(0, -1).every((t) => t.cache_control === undefined)).toBe(true);
    expect(tools.find((t) => t.name === 'edit_file')?.input_schema.required).toEqual(['path', 'search', 'replace']);
    expect(body['tool_choice']).toEqual({ type: 'auto' });
    const messages = body['messages'] as { role: string; content: { type: string; text: string }[] }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages.at(-1)?.content[0]?.text).toContain("```src/site.ts\nexport const site = { name: 'Iron Hall' };\n\n```");

    expect(streamProblems(events)).toEqual([]);
    expect(text(events)).toBe('I will rename the app and add an FAQ section.');
    expect(operations(events)).toEqual([
      { type: 'edit_file', path: 'src/site.ts', search: "name: 'Iron Hall'", replace: "name: 'Steel Hall'" },
      { type: 'write_file', path: 'src/components/Faq.tsx', content: 'export function Faq() {\n  return null;\n}\n' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: 2100, outputTokens: 321, cacheReadTokens: 0, cacheWriteTokens: 900 } });
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('asks for the whole file after a failed edit, and passes on errors to repair', async () => {
    server.reply(anthropicStream([{ tool: 'write_file', id: 'toolu_1', input: { path: 'src/site.ts', content: "export const site = { name: 'Steel Hall' };\n" } }]));
    const events = await collect(
      assistant().runTask(taskInput({ needFullFile: 'src/site.ts', previousErrors: [{ file: 'src/App.tsx', line: 4, column: 7, message: "Cannot find name 'Faq'.", severity: 'error' }] })),
    );
    const last = (server.requests[0]?.body['messages'] as { content: { text: string }[] }[]).at(-1)?.content[0]?.text ?? '';
    expect(last).toContain("- src/App.tsx:4:7 Cannot find name 'Faq'.");
    expect(last).toContain('Send the whole file src/site.ts with write_file.');
    expect(operations(events)).toEqual([{ type: 'write_file', path: 'src/site.ts', content: "export const site = { name: 'Steel Hall' };\n" }]);
  });

  it('rejects tool calls it cannot apply instead of passing them on', async () => {
    server.reply(
      anthropicStream([
        { tool: 'edit_file', id: 'toolu_1', input: { path: 'src/App.tsx', replace: 'x' } },
        { tool: 'write_file', id: 'toolu_2', input: { path: 'node_modules/react/index.js', content: 'evil' } },
        { tool: 'format_disk', id: 'toolu_3', input: {} },
        { tool: 'add_dependency', id: 'toolu_4', input: { name: 'left-pad', version: 'git+https://example.com/x.git' } },
        { tool: 'delete_file', id: 'toolu_5', input: { path: 'src/old.ts' } },
      ]),
    );
    const events = await collect(assistant().runTask(taskInput()));
    expect(streamProblems(events)).toEqual([]);
    const rejected = events.flatMap((e) => (e.type === 'rejected_operation' ? [[e.tool, e.error.reason]] : []));
    expect(rejected).toEqual([
      ['edit_file', 'malformed'],
      ['write_file', 'protected-path'],
      ['format_disk', 'malformed'],
      ['add_dependency', 'invalid-version'],
    ]);
    expect(operations(events)).toEqual([{ type: 'delete_file', path: 'src/old.ts' }]);
  });

  it('reports a provider failure as an error event with its status', async () => {
    server.reply(json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    const events = await collect(assistant().runTask(taskInput()));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'AI.PROVIDER_FAILED', status: 529 } });
  });

  it('stops with AI.ABORTED when the caller aborts mid-stream', async () => {
    server.reply((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'x', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`,
      );
      res.write(`event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`);
      res.write(`event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Working' } })}\n\n`);
      // …and never finishes.
    });
    const controller = new AbortController();
    const events: AssistantEvent[] = [];
    for await (const event of assistant().runTask(taskInput({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(events.at(-1)).toEqual({ type: 'error', error: { code: 'AI.ABORTED', message: 'The request was cancelled.' } });
    expect(streamProblems(events)).toEqual([]);
  });

  it('plans with a forced submit_plan tool call', async () => {
    server.reply(
      anthropicStream([
        {
          tool: 'submit_plan',
          id: 'toolu_1',
          input: {
            kind: 'build',
            modules: [
              { title: 'Layout', description: 'The page shell', tasks: [{ title: 'Header and hero', description: 'Brand, nav, hero' }] },
              { title: 'Content', description: 'Sections', tasks: [{ title: 'Features', description: 'Six features' }, { title: 'FAQ', description: 'Four questions' }] },
            ],
          },
        },
      ]),
    );
    const events = await collect(assistant().plan({ prompt: 'A landing page for my gym', tree: ['src/App.tsx'], files: [], history: [] }));
    expect(server.requests[0]?.body['tool_choice']).toEqual({ type: 'tool', name: 'submit_plan' });
    expect(streamProblems(events)).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['module', 'task', 'module', 'task', 'task', 'usage', 'done']);
    const done = events.at(-1);
    expect(done?.type === 'done' && done.plan).toEqual({
      kind: 'build',
      modules: [
        { id: 'module-1', title: 'Layout', description: 'The page shell' },
        { id: 'module-2', title: 'Content', description: 'Sections' },
      ],
      tasks: [
        { id: 'task-1', moduleId: 'module-1', title: 'Header and hero', description: 'Brand, nav, hero' },
        { id: 'task-2', moduleId: 'module-2', title: 'Features', description: 'Six features' },
        { id: 'task-3', moduleId: 'module-2', title: 'FAQ', description: 'Four questions' },
      ],
    });
  });

  it('completes a conversation: the cached system prompt, model and temperature go out, text deltas come back', async () => {
    server.reply(anthropicStream([{ text: 'A kanban board has columns of cards you drag between them.' }], { stopReason: 'end_turn' }));
    // A model the provider knows: it drops sampling settings for models it does not.
    const sonnet = createAnthropicAssistant({ apiKey: 'sk-ant-test', model: 'claude-sonnet-4-5', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const events = await collect(
      sonnet.complete({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: 'What is a kanban board?' },
        ],
        system: 'Answer in one sentence.',
        temperature: 0.3,
        maxTokens: 200,
      }),
    );
    const body = server.requests[0]?.body ?? {};
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(body['model']).toBe('claude-sonnet-4-5');
    expect(body['stream']).toBe(true);
    expect(body['temperature']).toBe(0.3);
    expect(body['max_tokens']).toBe(200);
    expect(body['system']).toEqual([{ type: 'text', text: 'Answer in one sentence.', cache_control: { type: 'ephemeral' } }]);
    expect(body['tools']).toBeUndefined();
    const messages = body['messages'] as { role: string; content: { text: string }[] }[];
    expect(messages.map((m) => [m.role, m.content[0]?.text])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'What is a kanban board?'],
    ]);
    expect(streamProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    expect(text(events)).toBe('A kanban board has columns of cards you drag between them.');
    expect(events.at(-2)).toMatchObject({ type: 'usage', usage: { inputTokens: 1200, outputTokens: 321 } });
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('reports a failed completion as one error event, never a throw', async () => {
    server.reply(json(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    const events = await collect(assistant().complete({ messages: [{ role: 'user', content: 'Hi' }] }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { code: 'AI.PROVIDER_FAILED', status: 529 } });
  });

  it('summarizes with one non-streamed call, and throws AiCallFailed when the provider fails', async () => {
    server.reply(
      json(200, {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-test-model',
        content: [{ type: 'text', text: ' A gym landing page; dark theme chosen. ' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 50, output_tokens: 12 },
      }),
    );
    await expect(assistant().summarize([{ role: 'user', content: 'Build a gym page' }], { instruction: 'the theme' })).resolves.toBe('A gym landing page; dark theme chosen.');
    const body = server.requests[0]?.body ?? {};
    expect(body['stream']).toBeUndefined();
    expect(JSON.stringify(body['messages'])).toContain('Keep especially: the theme');
    server.reply(json(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
    const failure = await assistant()
      .summarize([{ role: 'user', content: 'x' }])
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AiCallFailed);
    expect((failure as AiCallFailed).failure).toMatchObject({ code: 'AI.PROVIDER_FAILED', status: 401 });
  });
});

describe('OpenAI-compatible adapter (chat completions over SSE)', () => {
  let server: FakeVendorServer;
  const assistant = () => createOpenAiCompatibleAssistant({ name: 'local', baseURL: `${server.url}/v1`, apiKey: 'sk-local', model: 'test-model', maxRetries: 0 });

  beforeAll(async () => {
    server = await FakeVendorServer.start();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  it('sends the system prompt and function tools without cache control, and maps tool_calls deltas to operations', async () => {
    server.reply(
      openAiStream([
        { text: 'Adding the FAQ and a dependency.' },
        { tool: 'write_file', id: 'call_1', input: { path: 'src/components/Faq.tsx', content: 'export function Faq() {\n  return <p>FAQ</p>;\n}\n' }, pieces: 5 },
        { tool: 'add_dependency', id: 'call_2', input: { name: 'lucide-react', version: '^1.0.0' } },
      ]),
    );
    const events = await collect(assistant().runTask(taskInput()));

    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe('Bearer sk-local');
    const body = request?.body ?? {};
    expect(body['model']).toBe('test-model');
    expect(body['stream']).toBe(true);
    const messages = body['messages'] as { role: string; content: string }[];
    expect(messages[0]).toEqual({ role: 'system', content: TASK_SYSTEM_PROMPT });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const tools = body['tools'] as { type: string; function: { name: string; parameters: { required?: string[] } } }[];
    expect(tools.map((t) => [t.type, t.function.name])).toEqual(TOOLS.map((name) => ['function', name]));
    expect(tools.find((t) => t.function.name === 'write_file')?.function.parameters.required).toEqual(['path', 'content']);
    expect(JSON.stringify(body)).not.toContain('cache_control');

    expect(streamProblems(events)).toEqual([]);
    expect(text(events)).toBe('Adding the FAQ and a dependency.');
    expect(operations(events)).toEqual([
      { type: 'write_file', path: 'src/components/Faq.tsx', content: 'export function Faq() {\n  return <p>FAQ</p>;\n}\n' },
      { type: 'add_dependency', name: 'lucide-react', version: '^1.0.0' },
    ]);
    expect(events.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: 850, outputTokens: 120, cacheReadTokens: 0 } });
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('completes a conversation: system message, model and temperature go out, content deltas come back', async () => {
    server.reply(openAiStream([{ text: 'Offline mode builds apps without a provider.' }]));
    const events = await collect(assistant().complete({ messages: [{ role: 'user', content: 'What is offline mode?' }], system: 'Be brief.', temperature: 1.1 }));
    const body = server.requests[0]?.body ?? {};
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(body['model']).toBe('test-model');
    expect(body['stream']).toBe(true);
    expect(body['temperature']).toBe(1.1);
    expect(body['messages']).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is offline mode?' },
    ]);
    expect(body['tools']).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(streamProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    expect(text(events)).toBe('Offline mode builds apps without a provider.');
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('asks for JSON when the response format is json', async () => {
    server.reply(openAiStream([{ text: '{"answer":"yes"}' }]));
    const events = await collect(assistant().complete({ messages: [{ role: 'user', content: 'Can you build a blog?' }], responseFormat: 'json' }));
    const body = server.requests[0]?.body ?? {};
    expect(body['response_format']).toMatchObject({ type: 'json_object' });
    expect(body['messages']).toEqual([
      { role: 'system', content: JSON_ANSWER_INSTRUCTION },
      { role: 'user', content: 'Can you build a blog?' },
    ]);
    expect(streamProblems(events)).toEqual([]);
    expect(JSON.parse(text(events))).toEqual({ answer: 'yes' });
  });

  it('enhances a prompt with one call', async () => {
    server.reply(
      json(200, {
        id: 'c2',
        object: 'chat.completion',
        created: 1,
        model: 'test-model',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Build a landing page for Iron Hall gym with…' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
    await expect(assistant().enhancePrompt('gym site', 'react-vite')).resolves.toBe('Build a landing page for Iron Hall gym with…');
    expect(JSON.stringify(server.requests[0]?.body['messages'])).toContain('Template: react-vite');
  });
});

describe('createAiAssistant', () => {
  it('uses the offline generator when no provider is configured', () => {
    expect(createAiAssistant(undefined)).toBeInstanceOf(OfflineAiAssistant);
    expect(createAiAssistant({ provider: 'offline' }).model).toEqual({ provider: 'offline', id: 'kiln-offline-1', offline: true });
    expect(createAiAssistant({ provider: 'anthropic', apiKey: 'k' }).model).toEqual({ provider: 'anthropic', id: 'claude-sonnet-4-5', offline: false });
    expect(createAiAssistant({ provider: 'openai-compatible', name: 'ollama', baseURL: 'http://localhost:11434/v1', model: 'qwen3' }).model).toEqual({
      provider: 'ollama',
      id: 'qwen3',
      offline: false,
    });
  });
});
