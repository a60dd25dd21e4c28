import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { PgTurnRepository, PgTurnUndoJournal } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import { type AssistantEvent, RunTurn, type TaskInput, type TurnEvent, type TurnRepository, type TurnUndoJournal } from '@kiln/domain';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import type { DataSource } from 'typeorm';
import { POSTGRES_DATA_SOURCE, PostgresPersistenceModule } from '../persistence/postgres-persistence.module.js';
import { type TestApp, type TestUser, newUser, startTestApp } from '../testing/e2e.js';
import { AI_ASSISTANT, TURN_REPOSITORY, TURN_UNDO_JOURNAL } from '../tokens.js';
import { ProjectIndexer } from '../vector/project-indexer.js';
import { planOf, ScriptedAiAssistant } from './testing/scripted-ai-assistant.js';

const APP = 'src/App.tsx';
const INTERRUPTED = 'This message was interrupted when the server restarted. Nothing was kept and any credits were refunded.';

/** A promise that never settles: the process "stops" where it is awaited. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** An assistant whose second task never gets an answer: the API stops while waiting for it. */
class StoppingAssistant extends ScriptedAiAssistant {
  private tasks = 0;
  private reached: () => void = () => undefined;
  readonly stuck = new Promise<void>((resolve) => (this.reached = resolve));

  override runTask(input: TaskInput): AsyncIterable<AssistantEvent> {
    this.tasks += 1;
    if (this.tasks === 1) return super.runTask(input);
    this.reached();
    return { [Symbol.asyncIterator]: () => ({ next: () => never() }) };
  }
}

/**
 * A turn left running in PostgreSQL by an API process that stopped is ended by the next start,
 * before it listens: its files put back from the undo journal, its credits refunded, failed.
 */
describe('interrupted turns at API start (PostgreSQL)', () => {
  const inMemory = process.env['KILN_E2E_PERSISTENCE'] === 'memory';
  const url = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  // The sandboxes outlive the API process, as the files on disk do.
  const host = new InMemorySandboxHost();
  const apps: TestApp[] = [];

  const start = async (assistant: ScriptedAiAssistant): Promise<TestApp> => {
    const app = await startTestApp({ overrides: { persistence: PostgresPersistenceModule.forRoot({ url, schema }), sandboxHost: host, aiAssistant: assistant } });
    apps.push(app);
    return app;
  };
  const creditsOf = async (t: TestApp, user: TestUser) => (await t.http().get('/api/usage').set(user.auth).expect(200)).body.credits_remaining as number;
  const filesOf = async (projectId: string) => {
    const out: Record<string, string> = {};
    const walk = async (entries: Awaited<ReturnType<InMemorySandboxHost['getTree']>>) => {
      for (const entry of entries) {
        if (entry.type === 'file') out[entry.path] = await host.readFile(projectId, entry.path);
        else await walk(entry.children ?? []);
      }
    };
    await walk(await host.getTree(projectId, '.', []));
    return out;
  };
  const foldersOf = async (projectId: string) => {
    const out: string[] = [];
    const walk = (entries: Awaited<ReturnType<InMemorySandboxHost['getTree']>>) => {
      for (const entry of entries) {
        if (entry.type === 'directory') {
          out.push(entry.path);
          walk(entry.children ?? []);
        }
      }
    };
    walk(await host.getTree(projectId, '.', []));
    return out.sort();
  };

  afterAll(async () => {
    const last = apps[apps.length - 1];
    if (last !== undefined && !inMemory) await last.app.get<DataSource>(POSTGRES_DATA_SOURCE, { strict: false }).query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    for (const t of apps.reverse()) await t.close().catch(() => undefined);
  });

  (inMemory ? it.skip : it)(
    'undoes, refunds and fails a turn the previous process left running, before the API takes requests',
    async () => {
      // The first process: a two-task turn writes task 1's files, charges task 2, and the process stops.
      const stopping = new StoppingAssistant();
      const first = await start(stopping);
      const user = newUser();
      const created = await first.http().post('/api/projects').set(user.auth).send({ name: 'Shop' }).expect(201);
      const projectId = created.body.id as string;
      await first.http().post(`/api/sandbox/${projectId}/ensure`).set(user.auth).expect(200);
      expect(await creditsOf(first, user)).toBe(5);
      const filesBefore = await filesOf(projectId);
      const foldersBefore = await foldersOf(projectId);

      stopping.plans.push(planOf(2));
      stopping.answers.push({
        operations: [
          { type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Half-built shop' },
          { type: 'write_file', path: 'src/pages/cart/Cart.tsx', content: 'export const Cart = 1;\n' },
          { type: 'delete_file', path: 'index.html' },
        ],
      });
      const started = await first.app
        .get(RunTurn, { strict: false })
        .execute({ userId: user.id, projectId, message: 'Build the shop', idempotencyKey: 'k1', autoRun: true });
      if (!started.ok) throw new Error(started.error.code);
      const turnId = started.value.turnId;
      await stopping.stuck;
      expect(await creditsOf(first, user)).toBe(3);
      expect((await filesOf(projectId))['src/pages/cart/Cart.tsx']).toBeDefined();
      const journal = first.app.get<TurnUndoJournal>(TURN_UNDO_JOURNAL, { strict: false });
      expect(journal).toBeInstanceOf(PgTurnUndoJournal);
      expect(await journal.entries(turnId)).toContainEqual({ kind: 'file', path: 'src/pages/cart/Cart.tsx', before: null });
      const turns = first.app.get<TurnRepository>(TURN_REPOSITORY, { strict: false });
      expect(turns).toBeInstanceOf(PgTurnRepository);
      expect(await turns.findById(turnId)).toMatchObject({ status: 'running' });
      await first.close();

      // The next process: the turn is recovered while the app starts.
      const second = await start(new ScriptedAiAssistant());

      const history = await second.http().get(`/api/projects/${projectId}/turns`).set(user.auth).expect(200);
      expect(history.body).toEqual([expect.objectContaining({ id: turnId, status: 'failed', outcome: INTERRUPTED })]);
      expect(await filesOf(projectId)).toEqual(filesBefore);
      expect(await foldersOf(projectId)).toEqual(foldersBefore);
      expect(await creditsOf(second, user)).toBe(5);
      const stored = await second.app.get<TurnRepository>(TURN_REPOSITORY, { strict: false }).findById(turnId);
      expect(stored).toMatchObject({ status: 'failed', failureCode: 'TURNS.INTERRUPTED', creditsCharged: 2, creditsRefunded: 2 });
      expect(await second.app.get<TurnUndoJournal>(TURN_UNDO_JOURNAL, { strict: false }).entries(turnId)).toEqual([]);
      // The project is usable again: a new message runs and is kept.
      const assistant = second.app.get<ScriptedAiAssistant>(AI_ASSISTANT, { strict: false });
      assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/pages/Home.tsx', content: 'home' }] });
      const next = await second.app
        .get(RunTurn, { strict: false })
        .execute({ userId: user.id, projectId, message: 'Add a home page', idempotencyKey: 'k2', autoRun: true });
      if (!next.ok) throw new Error(next.error.code);
      const events: TurnEvent[] = [];
      for await (const event of next.value.events) events.push(event);
      expect(events[events.length - 1]).toMatchObject({ type: 'done', status: 'kept' });
      expect(await creditsOf(second, user)).toBe(4);
      // The start-up reindex of the restored project is queued before this one (one queue per project).
      await second.app.get(ProjectIndexer, { strict: false }).indexChanged(projectId, []);
    },
    120_000,
  );
});
