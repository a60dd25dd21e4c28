// Issue #16 item 5: a turn tells the assistant of its project's database (connected, with its
// tables and columns) through the optional AssistantDatabaseSource; projects without one, and a
// source that fails, are unaffected.
import { describe, expect, it } from '@jest/globals';
import type { AssistantDatabase } from '../ai-assistant.port.js';
import type { AssistantDatabaseSource } from '../context/assistant-database.port.js';
import { DescribeDatabaseForAssistant, ASSISTANT_SCHEMA_LIMITS } from '../../databases/use-cases/describe-database-for-assistant.use-case.js';
import { InMemoryDatabaseProvisioner, InMemoryProjectDatabaseRepository } from '../../testing/in-memory-databases.js';
import { DatabaseServerDown } from '../../databases/databases.errors.js';
import type { ProjectDatabase } from '../../databases/project-database.entity.js';
import { collect, createTurnTestKit } from './testing/turn-test-kit.js';
import { planOf } from './testing/scripted-ai-assistant.js';

const TODOS: AssistantDatabase = {
  connected: true,
  tables: [{ name: 'todos', rlsEnabled: true, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'title', type: 'text', nullable: false }] }],
};

class RecordingSource implements AssistantDatabaseSource {
  readonly asked: string[] = [];
  constructor(private readonly answer: () => Promise<AssistantDatabase | null>) {}
  forProject(projectId: string): Promise<AssistantDatabase | null> {
    this.asked.push(projectId);
    return this.answer();
  }
}

async function runTwoTasks(source?: AssistantDatabaseSource) {
  const t = await createTurnTestKit(source ? { database: source } : {});
  t.scriptErrors([]);
  t.assistant.plans.push(planOf(2));
  t.assistant.answers.push({ text: 'one', operations: [{ type: 'write_file', path: 'src/a.ts', content: 'export const a = 1;\n' }] }, { text: 'two', operations: [] });
  const started = await t.runTurn.execute(t.input('Make a todo list with sign-in', { autoRun: true }));
  if (!started.ok) throw new Error(started.error.code);
  const events = await collect(started.value);
  return { t, events };
}

describe('a turn tells the assistant of the project database', () => {
  it('passes the database, with its tables, to planning and to every task', async () => {
    const source = new RecordingSource(async () => TODOS);
    const { t, events } = await runTwoTasks(source);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'kept' });
    expect(source.asked).toEqual([t.projectId]);
    expect(t.assistant.planInputs.map((i) => i.database)).toEqual([TODOS]);
    expect(t.assistant.taskInputs.map((i) => i.database)).toEqual([TODOS, TODOS]);
  });

  it('tells nothing when the project has no database, or there is no source', async () => {
    for (const source of [new RecordingSource(async () => null), undefined]) {
      const { t, events } = await runTwoTasks(source);
      expect(events.at(-1)).toMatchObject({ type: 'done', status: 'kept' });
      expect([...t.assistant.planInputs, ...t.assistant.taskInputs].every((i) => !('database' in i))).toBe(true);
    }
  });

  it('goes on without it when the source fails (the database server is down)', async () => {
    const { t, events } = await runTwoTasks(new RecordingSource(() => Promise.reject(new DatabaseServerDown('down'))));
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'kept' });
    expect(t.assistant.taskInputs.every((i) => i.database === undefined)).toBe(true);
  });
});

describe('DescribeDatabaseForAssistant', () => {
  const record = (status: ProjectDatabase['status']): ProjectDatabase => ({
    id: 'db-1',
    projectId: 'p1',
    ownerId: 'alice',
    ref: 'abcdefghij0123456789',
    provider: 'local',
    status,
    connection: null,
    jwtSecret: 'secret',
    createdAt: new Date(0),
    updatedAt: new Date(0),
  });

  async function setUp(status: ProjectDatabase['status'] | null, provisioned = true) {
    const records = new InMemoryProjectDatabaseRepository();
    const provisioner = new InMemoryDatabaseProvisioner();
    if (status !== null) await records.insert(record(status));
    if (provisioned) await provisioner.provision('abcdefghij0123456789', { sizeMb: 50, connections: 3, statementTimeoutMs: 1000 });
    return { provisioner, describe: new DescribeDatabaseForAssistant(records, provisioner) };
  }

  it('a ready database: connected, with the tables of public and their columns', async () => {
    const { provisioner, describe: d } = await setUp('ready');
    provisioner.addTable('abcdefghij0123456789', 'todos', [{ name: 'id', type: 'uuid', nullable: false }, { name: 'done', type: 'boolean', nullable: false }]);
    provisioner.addTable('abcdefghij0123456789', 'audit', [], false);
    const told = await d.forProject('p1');
    expect(typeof told?.readSample).toBe('function');
    expect({ ...told, readSample: undefined }).toEqual({
      connected: true,
      tables: [
        { name: 'audit', rlsEnabled: false, columns: [] },
        { name: 'todos', rlsEnabled: true, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'done', type: 'boolean', nullable: false }] },
      ],
    });
  });

  it('null without a record, for one still provisioning or detached, and when the provider lost it', async () => {
    expect(await (await setUp(null)).describe.forProject('p1')).toBeNull();
    expect(await (await setUp('provisioning')).describe.forProject('p1')).toBeNull();
    expect(await (await setUp('detached')).describe.forProject('p1')).toBeNull();
    expect(await (await setUp('ready', false)).describe.forProject('p1')).toBeNull();
  });

  it('tells a schema, not a dump: at most so many tables and columns', async () => {
    const { provisioner, describe: d } = await setUp('ready');
    const columns = Array.from({ length: ASSISTANT_SCHEMA_LIMITS.columns + 5 }, (_, i) => ({ name: `c${i}`, type: 'text', nullable: true }));
    for (let i = 0; i < ASSISTANT_SCHEMA_LIMITS.tables + 3; i += 1) provisioner.addTable('abcdefghij0123456789', `t${String(i).padStart(3, '0')}`, columns);
    const told = await d.forProject('p1');
    expect(told?.tables).toHaveLength(ASSISTANT_SCHEMA_LIMITS.tables);
    expect(told?.tables[0]?.columns).toHaveLength(ASSISTANT_SCHEMA_LIMITS.columns);
  });

  it('reads a few rows for the assistant: capped, secret-looking columns hidden, long values cut', async () => {
    const { provisioner, describe: d } = await setUp('ready');
    const ref = 'abcdefghij0123456789';
    provisioner.addTable(ref, 'members', [{ name: 'id', type: 'integer', nullable: false }]);
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: i, email: `m${i}@example.com`, password_hash: 'bcrypt$x', api_token: 't', resetSecret: 's', bio: 'b'.repeat(500), note: null }));
    provisioner.addRows(ref, 'members', rows);
    const told = await d.forProject('p1');
    const sample = await told!.readSample!('members', 3);
    expect(sample).toHaveLength(3);
    expect(sample![0]).toEqual({ id: 0, email: 'm0@example.com', password_hash: '[hidden]', api_token: '[hidden]', resetSecret: '[hidden]', bio: `${'b'.repeat(200)}…`, note: null });
    expect(await told!.readSample!('members', 99)).toHaveLength(5);
    expect(await told!.readSample!('members', 0)).toHaveLength(1);
    expect(await told!.readSample!('missing', 3)).toBeNull();
    expect(await told!.readSample!('members\u0000', 3)).toBeNull();
    expect(await told!.readSample!('m'.repeat(64), 3)).toBeNull();
    provisioner.down = true;
    await expect(told!.readSample!('members', 3)).rejects.toBeInstanceOf(DatabaseServerDown);
  });

  it('throws when the provider cannot be reached (the turn then goes on without it)', async () => {
    const { provisioner, describe: d } = await setUp('ready');
    provisioner.down = true;
    await expect(d.forProject('p1')).rejects.toBeInstanceOf(DatabaseServerDown);
  });
});
