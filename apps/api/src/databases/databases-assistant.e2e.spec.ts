import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import { type TestApp, type TestUser, inMemoryDatabases, newUser, startTestApp } from '../testing/e2e.js';
import { postStream } from '../ai/testing/post-sse.js';
import { ScriptedAiAssistant } from '../ai/testing/scripted-ai-assistant.js';

/**
 * Issue #16 item 5 through HTTP: a turn of a project with a database tells the assistant it is
 * connected, with its tables and columns (configured models and the offline assistant alike), and
 * lets a task read a few rows; a project without one tells nothing.
 */
describe('the assistant hears of the project database (e2e)', () => {
  let t: TestApp;
  const assistant = new ScriptedAiAssistant();
  const databases = inMemoryDatabases();

  beforeAll(async () => {
    t = await startTestApp({ overrides: { aiAssistant: assistant, sandboxHost: new InMemorySandboxHost(), databases } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const base = () => `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  let keys = 0;
  async function turn(user: TestUser, id: string, message: string) {
    assistant.answers.push({ text: 'Done.', operations: [] });
    const reply = await postStream(`${base()}/api/projects/${id}/turns`, user.auth, { idempotency_key: `k-${++keys}`, message });
    expect(reply.status).toBe(200);
    return { plan: assistant.planInputs.at(-1), task: assistant.taskInputs.at(-1) };
  }
  async function project(): Promise<{ user: TestUser; id: string }> {
    const user = newUser();
    const created = await t.http().post('/api/projects').set(user.auth).send({ name: 'Todos' }).expect(201);
    return { user, id: (created.body as { id: string }).id };
  }

  it('with a database: connected, and its tables with their columns', async () => {
    const { user, id } = await project();
    const { ref } = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200)).body as { ref: string };
    databases.provisioner.addTable(ref, 'todos', [
      { name: 'id', type: 'uuid', nullable: false },
      { name: 'title', type: 'text', nullable: false },
    ]);
    const told = { connected: true, tables: [{ name: 'todos', rlsEnabled: true, columns: [{ name: 'id', type: 'uuid', nullable: false }, { name: 'title', type: 'text', nullable: false }] }] };
    const { plan, task } = await turn(user, id, 'Show the todos');
    // readSample is a function (compared below by what it reads).
    const schema = (database: { readSample?: unknown } | undefined) => ({ ...database, readSample: undefined });
    expect(schema(plan?.database)).toEqual(told);
    expect(schema(task?.database)).toEqual(told);
    // A plan preview (stream-tasks) is told the same.
    const preview = await postStream(`${base()}/api/ai/stream-tasks`, user.auth, { prompt: 'Show the todos', project_id: id });
    expect(preview.status).toBe(200);
    expect(schema(assistant.planInputs.at(-1)?.database)).toEqual(told);
  });

  it("with a database, a task may read a few of its rows (sample_rows): capped, secret-looking columns hidden", async () => {
    const { user, id } = await project();
    const { ref } = (await t.http().post('/api/db/provision').set(user.auth).send({ project_id: id }).expect(200)).body as { ref: string };
    databases.provisioner.addTable(ref, 'members', [{ name: 'email', type: 'text', nullable: false }]);
    databases.provisioner.addRows(ref, 'members', Array.from({ length: 9 }, (_, i) => ({ email: `m${i}@example.com`, password_hash: 'bcrypt$' })));
    const { task } = await turn(user, id, 'Show the members');
    const rows = await task?.database?.readSample?.('members', 50);
    expect(rows).toHaveLength(5);
    expect(rows?.[0]).toEqual({ email: 'm0@example.com', password_hash: '[hidden]' });
    expect(await task?.database?.readSample?.('x"; drop table members; --', 3)).toBeNull();
  });

  it('without one: nothing is told', async () => {
    const { user, id } = await project();
    const { plan, task } = await turn(user, id, 'Show the todos');
    expect(plan && 'database' in plan).toBe(false);
    expect(task && 'database' in task).toBe(false);
  });
});
