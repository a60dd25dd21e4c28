// The database tools of configured models (database-tools.ts), against a local server speaking
// Anthropic's wire format: sample_rows answers during the task and its rows reach the model's
// next step; add_migration comes back as a write_file of the next numbered migration.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { AssistantDatabase, AssistantEvent, TaskInput } from '@kiln/domain';
import { collect, streamProblems } from '@kiln/domain/testing';
import { DATABASE_TASK_STEPS, SAMPLE_CALLS_MAX } from './database-tools.js';
import { createAnthropicAssistant } from './providers.js';
import { anthropicStream, FakeVendorServer } from './testing/fake-vendor-server.js';

const FILE_TOOLS = ['write_file', 'edit_file', 'delete_file', 'rename_file', 'add_dependency', 'run_command'];

const taskInput = (database?: AssistantDatabase): TaskInput => ({
  prompt: 'Show my todos with their due dates',
  tree: ['index.html', 'src/App.tsx', 'supabase/migrations/0001_todos.sql', 'supabase/migrations/0002_tags.sql'],
  files: [],
  history: [],
  ...(database ? { database } : {}),
});

const TABLES: AssistantDatabase['tables'] = [{ name: 'todos', rlsEnabled: true, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'due', type: 'date', nullable: true }] }];

/** A database whose readSample records its calls and answers from `rows` (null: no such table). */
function databaseWith(rows: Record<string, readonly Record<string, unknown>[]>, fail = false) {
  const calls: [string, number][] = [];
  const database: AssistantDatabase = {
    connected: true,
    tables: TABLES,
    readSample: async (table, limit) => {
      calls.push([table, limit]);
      if (fail) throw new Error('connection refused');
      return rows[table]?.slice(0, limit) ?? null;
    },
  };
  return { database, calls };
}

const operations = (events: readonly AssistantEvent[]) => events.flatMap((e) => (e.type === 'operation' ? [e.operation] : []));
type Message = { role: string; content: { type: string; text?: string; tool_use_id?: string; content?: unknown; name?: string; input?: unknown }[] };

describe('AI SDK adapter: database tools', () => {
  let server: FakeVendorServer;
  const assistant = () => createAnthropicAssistant({ apiKey: 'sk-ant-test', model: 'claude-test-model', baseURL: `${server.url}/v1`, maxRetries: 0 });
  const toolNames = (i: number) => ((server.requests[i]?.body['tools'] ?? []) as { name: string }[]).map((t) => t.name);

  beforeAll(async () => {
    server = await FakeVendorServer.start();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });
  afterAll(() => server.close());

  it('sample_rows runs during the task: its rows reach the next step, then the write_file comes back as an operation', async () => {
    const { database, calls } = databaseWith({ todos: [{ id: 'a1', due: '2026-12-01' }, { id: 'a2', due: null }] });
    server.reply(anthropicStream([{ text: 'Let me look at the data.' }, { tool: 'sample_rows', id: 'toolu_s', input: { table: 'todos', limit: 2 } }]));
    server.reply(anthropicStream([{ tool: 'write_file', id: 'toolu_w', input: { path: 'src/Todos.tsx', content: 'export const Todos = () => null;\n' } }, { text: 'Done.' }], { stopReason: 'tool_use' }));
    const events = await collect(assistant().runTask(taskInput(database)));

    expect(streamProblems(events)).toEqual([]);
    expect(calls).toEqual([['todos', 2]]);
    expect(server.requests).toHaveLength(2);
    expect(toolNames(0)).toEqual([...FILE_TOOLS, 'add_migration', 'sample_rows']);
    // The second request carries the tool's answer for the model to read.
    const messages = server.requests[1]?.body['messages'] as Message[];
    const result = messages.at(-1)?.content.find((c) => c.type === 'tool_result');
    expect(result?.tool_use_id).toBe('toolu_s');
    expect(JSON.stringify(result?.content)).toContain('2026-12-01');
    expect(operations(events)).toEqual([{ type: 'write_file', path: 'src/Todos.tsx', content: 'export const Todos = () => null;\n' }]);
    expect(events.filter((e) => e.type === 'rejected_operation')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('an unknown table or a database that cannot be read is told to the model, not reported as a refused operation', async () => {
    const { database } = databaseWith({});
    server.reply(anthropicStream([{ tool: 'sample_rows', id: 'toolu_1', input: { table: 'x"; drop table todos; --' } }]));
    server.reply(anthropicStream([{ text: 'No such table.' }], { stopReason: 'end_turn' }));
    const events = await collect(assistant().runTask(taskInput(database)));
    const told = JSON.stringify((server.requests[1]?.body['messages'] as Message[]).at(-1)?.content);
    expect(told).toContain('There is no table');
    expect(told).toContain('tables: todos');
    expect(streamProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'rejected_operation' || e.type === 'operation')).toEqual([]);

    const down = databaseWith({}, true);
    server.reply(anthropicStream([{ tool: 'sample_rows', id: 'toolu_2', input: { table: 'todos' } }]));
    server.reply(anthropicStream([{ text: 'I will go on.' }], { stopReason: 'end_turn' }));
    const after = await collect(assistant().runTask(taskInput(down.database)));
    expect(down.calls).toEqual([['todos', 3]]);
    expect(JSON.stringify((server.requests[3]?.body['messages'] as Message[]).at(-1)?.content)).toContain('could not be read');
    expect(after.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('a model that keeps sampling is stopped: calls answered at most SAMPLE_CALLS_MAX, steps at most DATABASE_TASK_STEPS, the last without sample_rows', async () => {
    const { database, calls } = databaseWith({ todos: [{ id: 'a1' }] });
    // One more request than this would find no scripted reply and end in an error.
    for (let i = 0; i < DATABASE_TASK_STEPS; i += 1) server.reply(anthropicStream([{ tool: 'sample_rows', id: `toolu_${i}`, input: { table: 'todos', limit: 1 } }]));
    const events = await collect(assistant().runTask(taskInput(database)));
    expect(server.requests).toHaveLength(DATABASE_TASK_STEPS);
    expect(calls).toHaveLength(SAMPLE_CALLS_MAX);
    expect(toolNames(0)).toContain('sample_rows');
    expect(toolNames(DATABASE_TASK_STEPS - 1)).not.toContain('sample_rows');
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('add_migration becomes a write_file of the next numbered migration (and the next after that)', async () => {
    const { database } = databaseWith({});
    server.reply(
      anthropicStream([
        { tool: 'add_migration', id: 'toolu_1', input: { name: 'add_due_to_todos', sql: 'alter table todos add column due date;' } },
        { tool: 'add_migration', id: 'toolu_2', input: { name: 'create_notes', sql: 'create table notes (id uuid primary key);\n' } },
        { tool: 'add_migration', id: 'toolu_3', input: { name: 'Bad Name!', sql: 'select 1;' } },
        { tool: 'add_migration', id: 'toolu_4', input: { name: 'empty', sql: '   ' } },
      ]),
    );
    const events = await collect(assistant().runTask(taskInput(database)));
    expect(server.requests).toHaveLength(1);
    expect(operations(events)).toEqual([
      { type: 'write_file', path: 'supabase/migrations/0003_add_due_to_todos.sql', content: 'alter table todos add column due date;\n' },
      { type: 'write_file', path: 'supabase/migrations/0004_create_notes.sql', content: 'create table notes (id uuid primary key);\n' },
    ]);
    expect(events.flatMap((e) => (e.type === 'rejected_operation' ? [[e.tool, e.error.reason]] : []))).toEqual([
      ['add_migration', 'malformed'],
      ['add_migration', 'malformed'],
    ]);
  });

  it('without a database neither tool is offered, and a call to one is refused; without readSample only add_migration', async () => {
    server.reply(anthropicStream([{ tool: 'add_migration', id: 'toolu_1', input: { name: 'x', sql: 'select 1;' } }, { tool: 'sample_rows', id: 'toolu_2', input: { table: 'todos' } }]));
    const events = await collect(assistant().runTask(taskInput()));
    expect(toolNames(0)).toEqual(FILE_TOOLS);
    expect(server.requests).toHaveLength(1);
    expect(operations(events)).toEqual([]);
    expect(events.flatMap((e) => (e.type === 'rejected_operation' ? [e.tool] : []))).toEqual(['add_migration', 'sample_rows']);

    server.reply(anthropicStream([{ text: 'ok' }], { stopReason: 'end_turn' }));
    await collect(assistant().runTask(taskInput({ connected: true, tables: TABLES })));
    expect(toolNames(1)).toEqual([...FILE_TOOLS, 'add_migration']);
  });
});
