// RunTurn's undo journal: every write is journaled before it happens, so a restart after a crash can revert the turn (split from run-turn.spec.ts).
import { describe, expect, it } from '@jest/globals';
import { aiFailure } from '../ai-assistant.port.js';
import { planOf } from './testing/scripted-ai-assistant.js';
import type { InMemorySandboxHost } from '../../testing/in-memory-sandbox-host.js';
import { codeError, collect, createTurnTestKit, type TurnTestKit } from './testing/turn-test-kit.js';
import type { InMemoryTurnUndoJournal } from '../../testing/in-memory-turn-undo-journal.js';
import type { TurnUndoEntry } from './turn-undo-journal.port.js';
import type { TurnEvent } from './turn-event.js';

const APP = 'src/App.tsx';

const last = (events: readonly TurnEvent[]) => events[events.length - 1];

describe('RunTurn undo journal (for a restart after a crash)', () => {
  /** A kit whose host checks, at every write and delete, that the path's pre-image is already in the journal. */
  async function journalingKit() {
    const log: string[] = [];
    const unjournaled: string[] = [];
    const holder: { t?: TurnTestKit } = {};
    const journaled = async (path: string) => {
      const t = holder.t;
      if (t === undefined) return;
      const turnIds = (await t.turns.listInProgress()).map((x) => x.id);
      const entries = (await Promise.all(turnIds.map((id) => t.journal.entries(id)))).flat();
      if (!entries.some((e) => e.kind === 'file' && e.path === path)) unjournaled.push(path);
    };
    const t = await createTurnTestKit({
      host: (inner) =>
        Object.assign(Object.create(inner) as InMemorySandboxHost, {
          writeFile: async (id: string, path: string, content: string) => {
            await journaled(path);
            log.push(`write ${path}`);
            return inner.writeFile(id, path, content);
          },
          deleteFile: async (id: string, path: string) => {
            if ((await inner.getTree(id, '.', [])).some((e) => e.path === path && e.type === 'file')) await journaled(path);
            log.push(`delete ${path}`);
            return inner.deleteFile(id, path);
          },
        }),
      journal: (inner) =>
        Object.assign(Object.create(inner) as InMemoryTurnUndoJournal, {
          record: async (turnId: string, projectId: string, entries: readonly TurnUndoEntry[]) => {
            log.push(`record ${entries.map((e) => (e.kind === 'every_file' ? e.kind : `${e.kind}:${e.path}`)).join(' ')}`);
            return inner.record(turnId, projectId, entries);
          },
        }),
    });
    holder.t = t;
    return { t, log, unjournaled };
  }

  it('records each batch’s pre-images (and, first, the folders there were) in one record before writing it', async () => {
    const { t, log, unjournaled } = await journalingKit();
    t.scriptErrors([]);
    t.assistant.plans.push(planOf(2));
    t.assistant.answers.push(
      { operations: [{ type: 'write_file', path: 'src/lib/a.ts', content: 'a' }, { type: 'delete_file', path: 'index.html' }, { type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Chores' }] },
      { operations: [{ type: 'write_file', path: 'src/lib/a.ts', content: 'a2' }, { type: 'write_file', path: 'src/b.ts', content: 'b' }] },
    );
    const started = await t.runTurn.execute(t.input('Two batches', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);

    expect(unjournaled).toEqual([]);
    expect(log).toEqual([
      'record folder:src file:index.html file:src/App.tsx file:src/lib/a.ts',
      'delete index.html',
      'write src/App.tsx',
      'write src/lib/a.ts',
      // The second batch records only what was not recorded before.
      'record file:src/b.ts',
      'write src/b.ts',
      'write src/lib/a.ts',
    ]);
  });

  it('a write that fails after the record: the turn is undone from memory and nothing is left in the journal', async () => {
    const t = await createTurnTestKit({
      host: (inner) =>
        Object.assign(Object.create(inner) as InMemorySandboxHost, {
          writeFile: async (id: string, path: string, content: string) => {
            if (path === 'src/b.ts') throw new Error('disk full');
            return inner.writeFile(id, path, content);
          },
        }),
    });
    const before = await t.files();
    let journalAtFailure: readonly TurnUndoEntry[] = [];
    const recorded = t.journal.record.bind(t.journal);
    t.journal.record = async (turnId, projectId, entries) => {
      await recorded(turnId, projectId, entries);
      journalAtFailure = await t.journal.entries(turnId);
    };
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }, { type: 'write_file', path: 'src/b.ts', content: 'b' }] });
    const started = await t.runTurn.execute(t.input('Write two', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    const events = await collect(started.value);

    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'TURNS.FAILED' } });
    expect(journalAtFailure).toEqual(expect.arrayContaining([{ kind: 'file', path: 'src/a.ts', before: null }, { kind: 'file', path: 'src/b.ts', before: null }]));
    expect(await t.files()).toEqual(before);
    expect(await t.journal.entries(started.value.turnId)).toEqual([]);
  });

  it('a journal that cannot be written stops the turn before anything is written', async () => {
    const writes: string[] = [];
    const t = await createTurnTestKit({
      host: (inner) =>
        Object.assign(Object.create(inner) as InMemorySandboxHost, {
          writeFile: async (id: string, path: string, content: string) => {
            writes.push(path);
            return inner.writeFile(id, path, content);
          },
        }),
      journal: (inner) =>
        Object.assign(Object.create(inner) as InMemoryTurnUndoJournal, {
          record: async () => {
            throw new Error('database went away');
          },
        }),
    });
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] });
    const started = await t.runTurn.execute(t.input('Write', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    const events = await collect(started.value);

    expect(last(events)).toMatchObject({ type: 'error', error: { code: 'TURNS.FAILED' } });
    expect(writes).toEqual([]);
    expect(await t.credits()).toBe(5);
  });

  it.each([
    ['kept', [], {}],
    ['reverted', [codeError('broken')], {}],
    ['failed', [], { error: aiFailure('AI.PROVIDER_FAILED', 'Down') }],
  ] as const)('the journal is cleared when the turn ends %s', async (status, errors, secondAnswer) => {
    const t = await createTurnTestKit({ settings: { repairRounds: 0 } });
    t.scriptErrors([]);
    t.assistant.plans.push(planOf(2));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] }, () => {
      t.scriptErrors(errors);
      return secondAnswer;
    });
    let recorded = 0;
    const record = t.journal.record.bind(t.journal);
    t.journal.record = async (...args) => {
      recorded += 1;
      return record(...args);
    };
    const started = await t.runTurn.execute(t.input('Write a', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);

    expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status });
    expect(recorded).toBe(1);
    expect(await t.journal.entries(started.value.turnId)).toEqual([]);
  });

  it('a turn whose end cannot be stored keeps its journal, so the next start can undo it', async () => {
    const t = await createTurnTestKit();
    t.scriptErrors([]);
    const save = t.turns.save.bind(t.turns);
    t.turns.save = async (turn) => {
      if (turn.status !== 'running') throw new Error('database went away');
      return save(turn);
    };
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] });
    const started = await t.runTurn.execute(t.input('Write a', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);

    expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'running' });
    expect(await t.journal.entries(started.value.turnId)).toContainEqual({ kind: 'file', path: 'src/a.ts', before: null });
  });
});
