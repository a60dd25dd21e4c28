import { describe, expect, it } from '@jest/globals';
import { aiFailure } from '../ai-assistant.port.js';
import { ErrorScanUnavailable, unavailableErrorScan } from '../../sandbox/error-scan.js';
import { planOf } from './testing/scripted-ai-assistant.js';
import { codeError, collect, createTurnTestKit } from './testing/turn-test-kit.js';
import type { TurnEvent } from './turn-event.js';

const APP = 'src/App.tsx';
const STARTER_APP = 'export function App() {\n  return <h1>Welcome to your Kiln app</h1>;\n}\n';
const TODO_APP = 'export function App() {\n  return <h1>Chores</h1>;\n}\n';

const types = (events: readonly TurnEvent[]) => events.map((e) => (e.type === 'phase' ? `phase:${e.phase}` : e.type === 'task' ? `task:${e.state}` : e.type));
const last = (events: readonly TurnEvent[]) => events[events.length - 1];

describe('RunTurn', () => {
  it('keeps a single-task turn: one credit, one commit with the prompt as its message, events in order', async () => {
    const t = await createTurnTestKit();
    t.scriptErrors([]);
    t.assistant.answers.push({ text: 'Renaming the app.', operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Chores' }] });
    const started = await t.runTurn.execute(t.input('Call the app Chores'));
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const events = await collect(started.value);

    expect(types(events)).toEqual([
      'turn',
      'phase:fetching',
      'phase:thinking',
      'plan',
      'phase:building',
      'credits',
      'task:running',
      'text',
      'operation',
      'task:done',
      'checking',
      'errors',
      'files_changed',
      'phase:idle',
      'done',
    ]);
    const done = last(events);
    expect(done).toEqual({ type: 'done', status: 'kept', message: 'Changed 1 file.', commitHash: expect.any(String) });
    expect(events).toContainEqual({ type: 'credits', charged: 1, refunded: 0, creditsRemaining: 4 });
    expect(events).toContainEqual({ type: 'operation', taskId: 't1', operation: 'edit_file', path: APP });
    expect(events).toContainEqual({ type: 'files_changed', paths: [APP] });
    // The builder and the index hear it through the port, once.
    expect(t.filesChanged.of(t.projectId)).toEqual([{ paths: [APP], reason: 'write' }]);
    expect(await t.credits()).toBe(4);
    expect((await t.files())[APP]).toBe(TODO_APP);

    const history = await t.host.versionHistory(t.projectId);
    expect(history[0]).toMatchObject({ message: 'Call the app Chores', filesChanged: [APP] });
    expect(done.type === 'done' && done.commitHash).toBe(history[0]?.hash);

    const stored = await t.turns.findById(started.value.turnId);
    expect(stored).toMatchObject({ status: 'kept', commitHash: history[0]?.hash, reply: 'Renaming the app.', creditsCharged: 1, creditsRefunded: 0 });
    // The assistant saw the tree and the starter's files as context.
    expect(t.assistant.taskInputs[0]?.files.map((f) => f.path)).toEqual(['package.json', 'index.html', 'src/main.tsx', APP]);
    expect(t.assistant.taskInputs[0]?.task?.id).toBe('t1');
  });

  it('takes the baseline scan of the files as they were: nothing is written until it has finished', async () => {
    const log: string[] = [];
    let finishScan: () => void = () => undefined;
    const t = await createTurnTestKit({
      // A slow scan (a real one reads the files for seconds) and a log of writes.
      host: (inner) =>
        Object.assign(Object.create(inner) as typeof inner, {
          findErrors: async (id: string) => {
            log.push('scan started');
            if (log.filter((l) => l === 'scan started').length === 1) await new Promise<void>((resolve) => (finishScan = resolve));
            log.push('scan finished');
            return inner.findErrors(id);
          },
          writeFile: async (id: string, path: string, content: string) => {
            log.push(`write ${path}`);
            return inner.writeFile(id, path, content);
          },
        }),
    });
    t.scriptErrors([]);
    t.assistant.answers.push({ operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Chores' }] });
    const started = await t.runTurn.execute(t.input('Call the app Chores'));
    if (!started.ok) throw new Error('not started');
    const collecting = collect(started.value);
    // Give the turn every chance to run ahead (it must not write while the scan is pending).
    for (let i = 0; i < 200; i++) await Promise.resolve();
    expect(log).toEqual(['scan started']);
    finishScan();
    const events = await collecting;
    expect(last(events)).toMatchObject({ type: 'done', status: 'kept' });
    expect(log.indexOf('scan finished')).toBeLessThan(log.indexOf(`write ${APP}`));
  });

  it('charges the debit under turn:<id>:task:<n> in the ledger', async () => {
    const t = await createTurnTestKit();
    const started = await t.runTurn.execute(t.input('Anything'));
    if (!started.ok) throw new Error('not started');
    await collect(started.value);
    const keys = (await t.kit.ledger.entries(t.userId)).filter((e) => e.kind === 'debit').map((e) => e.key);
    expect(keys).toEqual([`turn:${started.value.turnId}:task:0`]);
  });

  it('a plan without tasks runs the message as one task (one credit)', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(planOf(0));
    const started = await t.runTurn.execute(t.input('What can you do?'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(events).toContainEqual({ type: 'task', taskId: 'task-1', index: 0, title: 'What can you do?', state: 'done' });
    expect(last(events)).toEqual({ type: 'done', status: 'kept', message: 'Nothing was changed.' });
    expect(t.assistant.taskInputs[0]?.task).toBeUndefined();
    expect(await t.credits()).toBe(4);
  });

  describe('plans of several tasks', () => {
    it('waits for approval (nothing charged), then accept runs every task for one credit each', async () => {
      const t = await createTurnTestKit();
      t.assistant.plans.push(planOf(3));
      for (let i = 1; i <= 3; i++) t.assistant.answers.push({ operations: [{ type: 'write_file', path: `src/part${i}.ts`, content: `export const part${i} = ${i};\n` }] });
      const started = await t.runTurn.execute(t.input('Build a todo list'));
      if (!started.ok) throw new Error('not started');
      const waiting = await collect(started.value);
      expect(types(waiting)).toEqual(['turn', 'phase:fetching', 'phase:thinking', 'plan', 'phase:idle', 'awaiting_approval']);
      expect(last(waiting)).toEqual({ type: 'awaiting_approval', turnId: started.value.turnId, cost: 3 });
      expect(waiting).toContainEqual(expect.objectContaining({ type: 'plan', cost: 3 }));
      expect(await t.credits()).toBe(5);
      expect(t.assistant.taskInputs).toHaveLength(0);
      expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'awaiting_approval', plan: planOf(3) });

      const accepted = await t.acceptTurnPlan.execute({ userId: t.userId, projectId: t.projectId, turnId: started.value.turnId });
      if (!accepted.ok) throw new Error(accepted.error.code);
      const events = await collect(accepted.value);
      expect(types(events).slice(0, 4)).toEqual(['turn', 'phase:fetching', 'phase:building', 'credits']);
      expect(events.filter((e) => e.type === 'task' && e.state === 'done').map((e) => e.type === 'task' && e.index)).toEqual([0, 1, 2]);
      expect(events.filter((e) => e.type === 'credits').map((e) => e.type === 'credits' && e.charged)).toEqual([1, 2, 3]);
      expect(last(events)).toMatchObject({ type: 'done', status: 'kept', message: 'Changed 3 files.' });
      expect(await t.credits()).toBe(2);
      // Each task got the plan and its own task; one commit for the whole turn.
      expect(t.assistant.taskInputs.map((i) => i.task?.id)).toEqual(['t1', 't2', 't3']);
      expect(t.assistant.taskInputs[2]?.plan).toEqual(planOf(3));
      expect((await t.host.versionHistory(t.projectId))[0]?.filesChanged).toEqual(['src/part1.ts', 'src/part2.ts', 'src/part3.ts']);
      // Accepting again is refused.
      const again = await t.acceptTurnPlan.execute({ userId: t.userId, projectId: t.projectId, turnId: started.value.turnId });
      expect(!again.ok && again.error).toMatchObject({ code: 'TURNS.NOT_AWAITING_APPROVAL', status: 'kept' });
    });

    it('auto_run runs the plan at once', async () => {
      const t = await createTurnTestKit();
      t.assistant.plans.push(planOf(2));
      const started = await t.runTurn.execute(t.input('Build a todo list', { autoRun: true }));
      if (!started.ok) throw new Error('not started');
      const events = await collect(started.value);
      expect(types(events)).not.toContain('awaiting_approval');
      expect(last(events)).toMatchObject({ type: 'done', status: 'kept' });
      expect(await t.credits()).toBe(3);
    });

    it('keeps the paragraphs of the reply: each task’s words start a new one, line breaks within are kept', async () => {
      const t = await createTurnTestKit();
      t.assistant.plans.push(planOf(2));
      t.assistant.answers.push({ text: 'First task.\nTwo lines.', operations: [] }, { text: 'Second task.', operations: [] });
      const started = await t.runTurn.execute(t.input('Build a todo list\n\nwith two paragraphs', { autoRun: true }));
      if (!started.ok) throw new Error('not started');
      await collect(started.value);
      const stored = await t.turns.findById(started.value.turnId);
      expect(stored?.reply).toBe('First task.\nTwo lines.\n\nSecond task.');
      expect(stored?.message).toBe('Build a todo list\n\nwith two paragraphs');
    });

    it('cancel drops a waiting plan without a charge; two concurrent accepts run it once', async () => {
      const t = await createTurnTestKit();
      t.assistant.plans.push(planOf(2), planOf(2));
      const first = await t.runTurn.execute(t.input('Plan one'));
      const second = await t.runTurn.execute(t.input('Plan two'));
      if (!first.ok || !second.ok) throw new Error('not started');
      await collect(first.value);
      await collect(second.value);
      const ref = (turnId: string) => ({ userId: t.userId, projectId: t.projectId, turnId });

      const cancelled = await t.cancelTurnPlan.execute(ref(first.value.turnId));
      expect(cancelled.ok && cancelled.value.status).toBe('cancelled');
      expect((await t.cancelTurnPlan.execute(ref(first.value.turnId))).ok).toBe(true);
      const afterCancel = await t.acceptTurnPlan.execute(ref(first.value.turnId));
      expect(!afterCancel.ok && afterCancel.error.code).toBe('TURNS.NOT_AWAITING_APPROVAL');

      const [a, b] = await Promise.all([t.acceptTurnPlan.execute(ref(second.value.turnId)), t.acceptTurnPlan.execute(ref(second.value.turnId))]);
      expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
      const winner = a.ok ? a.value : b.ok ? b.value : null;
      await collect(winner!);
      expect(await t.credits()).toBe(3);
      // Cancelling a plan that already ran is refused.
      const late = await t.cancelTurnPlan.execute(ref(second.value.turnId));
      expect(!late.ok && late.error.code).toBe('TURNS.NOT_AWAITING_APPROVAL');
    });

    it('accept with no credit left answers CREDITS.LIMIT_REACHED and the plan waits again', async () => {
      const t = await createTurnTestKit();
      t.assistant.plans.push(planOf(2));
      const started = await t.runTurn.execute(t.input('Plan'));
      if (!started.ok) throw new Error('not started');
      await collect(started.value);
      for (let i = 0; i < 5; i++) await t.kit.consumePromptCredit.execute({ userId: t.userId, idempotencyKey: `spend-${i}` });
      const accepted = await t.acceptTurnPlan.execute({ userId: t.userId, projectId: t.projectId, turnId: started.value.turnId });
      if (!accepted.ok) throw new Error('not accepted');
      const events = await collect(accepted.value);
      expect(last(events)).toMatchObject({ type: 'error', started: false, error: { code: 'CREDITS.LIMIT_REACHED', limitType: 'credit' } });
      expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'awaiting_approval' });
    });

    it('running out of credits in a later task reverts the turn and refunds every credit', async () => {
      const t = await createTurnTestKit();
      const before = await t.files();
      for (let i = 0; i < 3; i++) await t.kit.consumePromptCredit.execute({ userId: t.userId, idempotencyKey: `spend-${i}` });
      t.assistant.plans.push(planOf(3));
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/one.ts', content: '1' }] }, { operations: [{ type: 'write_file', path: APP, content: 'x' }] });
      const started = await t.runTurn.execute(t.input('Build', { autoRun: true }));
      if (!started.ok) throw new Error('not started');
      const events = await collect(started.value);
      expect(last(events)).toEqual({ type: 'done', status: 'reverted', message: expect.stringContaining('ran out of credits') });
      expect(events).toContainEqual({ type: 'task', taskId: 't3', index: 2, title: 'Task 3', state: 'failed' });
      expect(events).toContainEqual({ type: 'credits', charged: 2, refunded: 2, creditsRemaining: 2 });
      expect(events).toContainEqual({ type: 'files_changed', paths: [] });
      expect(t.filesChanged.of(t.projectId)).toEqual([{ paths: [], reason: 'write' }]);
      expect(await t.files()).toEqual(before);
      expect(await t.credits()).toBe(2);
    });
  });

  describe('checking and repairing', () => {
    it('a turn that breaks the build is repaired in round 1: kept, no extra charge', async () => {
      const t = await createTurnTestKit();
      t.scriptErrors([]);
      const broken = codeError("Cannot find name 'Chorse'.");
      t.assistant.answers.push(
        () => {
          t.scriptErrors([broken]);
          return { operations: [{ type: 'write_file', path: APP, content: 'export const App = () => Chorse;\n' }] };
        },
        (input) => {
          expect(input.previousErrors).toEqual([broken]);
          t.scriptErrors([]);
          return { text: 'Fixed the typo.', operations: [{ type: 'edit_file', path: APP, search: 'Chorse', replace: "'Chores'" }] };
        },
      );
      const started = await t.runTurn.execute(t.input('Build chores'));
      if (!started.ok) throw new Error('not started');
      const events = await collect(started.value);
      expect(events.filter((e) => e.type === 'checking' || e.type === 'errors').map((e) => `${e.type}:${e.type === 'errors' ? e.scan.errorCount : e.round}`)).toEqual([
        'checking:0',
        'errors:1',
        'checking:1',
        'errors:0',
      ]);
      expect(events).toContainEqual({ type: 'text', taskId: 'repair-1', text: 'Fixed the typo.' });
      expect(last(events)).toMatchObject({ type: 'done', status: 'kept' });
      expect((await t.files())[APP]).toBe("export const App = () => 'Chores';\n");
      expect(await t.credits()).toBe(4);
      expect(t.assistant.taskInputs).toHaveLength(2);
    });

    it('errors that were there before the turn do not count against it', async () => {
      const t = await createTurnTestKit();
      t.scriptErrors([codeError('old'), codeError('older')]);
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/x.ts', content: 'x' }] });
      const started = await t.runTurn.execute(t.input('Add x'));
      if (!started.ok) throw new Error('not started');
      expect(last(await collect(started.value))).toMatchObject({ type: 'done', status: 'kept' });
      expect(t.assistant.taskInputs).toHaveLength(1);
    });

    it('a check that cannot run is reported as not checked in the errors event, never as no errors', async () => {
      const t = await createTurnTestKit({
        host: (inner) => Object.assign(Object.create(inner) as typeof inner, { findErrors: () => Promise.reject(new ErrorScanUnavailable('Type-checking did not finish within 60 s.')) }),
      });
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/x.ts', content: 'x' }] });
      const started = await t.runTurn.execute(t.input('Add x'));
      if (!started.ok) throw new Error('not started');
      const events = await collect(started.value);
      expect(events).toContainEqual({ type: 'errors', round: 0, scan: unavailableErrorScan('Type-checking did not finish within 60 s.') });
      expect(last(events)).toMatchObject({ type: 'done', status: 'kept' });
    });

    it("never runs the assistant's package installs as commands (they would replace node_modules)", async () => {
      const ran: string[] = [];
      const t = await createTurnTestKit({
        host: (inner) =>
          Object.assign(Object.create(inner) as typeof inner, {
            runCommand: async (id: string, command: string) => {
              ran.push(command);
              return inner.runCommand(id, command);
            },
          }),
      });
      t.scriptErrors([]);
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/x.ts', content: 'x' }, { type: 'run_command', command: 'npm install dayjs' }, { type: 'run_command', command: 'npm run build' }] });
      const started = await t.runTurn.execute(t.input('Add x'));
      if (!started.ok) throw new Error('not started');
      expect(last(await collect(started.value))).toMatchObject({ type: 'done', status: 'kept' });
      expect(ran).toEqual(['npm run build']);
    });

    it('still broken after 2 repair rounds: reverted, files restored exactly, every credit refunded', async () => {
      const t = await createTurnTestKit();
      t.scriptErrors([]);
      t.assistant.plans.push(planOf(2));
      await t.host.writeFile(t.projectId, 'src/old.ts', 'export const old = 1;\n');
      const before = await t.files();
      const historyBefore = await t.host.versionHistory(t.projectId);
      t.assistant.answers.push(
        { operations: [{ type: 'write_file', path: 'src/components/New.tsx', content: 'new' }, { type: 'delete_file', path: 'src/old.ts' }] },
        () => {
          t.scriptErrors([codeError('broken')]);
          return { operations: [{ type: 'edit_file', path: APP, search: 'Welcome', replace: 'Broken' }, { type: 'rename_file', from: 'src/main.tsx', to: 'src/entry.tsx' }] };
        },
        { operations: [{ type: 'write_file', path: 'src/repair1.ts', content: 'r1' }] },
        { operations: [{ type: 'write_file', path: 'src/repair2.ts', content: 'r2' }] },
      );
      const started = await t.runTurn.execute(t.input('Build', { autoRun: true }));
      if (!started.ok) throw new Error('not started');
      const events = await collect(started.value);
      const done = last(events);
      expect(done).toEqual({ type: 'done', status: 'reverted', message: expect.stringContaining('2 repair rounds did not fix it') });
      expect(done.type === 'done' && done.message).toContain('First error: src/App.tsx:1 broken');
      expect(events.filter((e) => e.type === 'checking').map((e) => e.type === 'checking' && e.round)).toEqual([0, 1, 2]);
      expect(events).toContainEqual({ type: 'credits', charged: 2, refunded: 2, creditsRemaining: 5 });
      expect(events).toContainEqual({ type: 'files_changed', paths: [] });
      expect(await t.files()).toEqual(before);
      expect((await t.host.getTree(t.projectId, 'src')).map((e) => e.name)).not.toContain('components');
      expect(await t.host.versionHistory(t.projectId)).toEqual(historyBefore);
      expect(await t.credits()).toBe(5);
      expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'reverted', creditsCharged: 2, creditsRefunded: 2, commitHash: null });
    });

    it('with AI_REPAIR_ROUNDS 0 a worse build is reverted at once', async () => {
      const t = await createTurnTestKit({ settings: { repairRounds: 0 } });
      t.scriptErrors([]);
      t.assistant.answers.push(() => {
        t.scriptErrors([codeError('broken')]);
        return { operations: [{ type: 'write_file', path: APP, content: 'broken' }] };
      });
      const started = await t.runTurn.execute(t.input('Break it'));
      if (!started.ok) throw new Error('not started');
      expect(last(await collect(started.value))).toMatchObject({ type: 'done', status: 'reverted', message: expect.stringContaining('could not be repaired') });
      expect((await t.files())[APP]).toBe(STARTER_APP);
      expect(t.assistant.taskInputs).toHaveLength(1);
    });
  });

  describe('credits', () => {
    it('with no credit left the first debit is refused before anything happens, and the message is forgotten', async () => {
      const t = await createTurnTestKit();
      for (let i = 0; i < 5; i++) await t.kit.consumePromptCredit.execute({ userId: t.userId, idempotencyKey: `spend-${i}` });
      const before = await t.files();
      const input = t.input('Change it');
      const started = await t.runTurn.execute(input);
      if (!started.ok) throw new Error('not started');
      const events = await collect(started.value);
      expect(last(events)).toEqual({
        type: 'error',
        started: false,
        error: expect.objectContaining({ code: 'CREDITS.LIMIT_REACHED', limitType: 'credit', available: 0, requested: 1 }),
      });
      expect(types(events)).not.toContain('credits');
      expect(t.assistant.taskInputs).toHaveLength(0);
      expect(await t.files()).toEqual(before);
      expect(await t.turns.listByProject(t.projectId)).toEqual([]);
      expect(await started.value.finished).toBeNull();
      // The same key can be used again once there are credits.
      await t.kit.grantAddOnCredits.execute({ userId: t.userId, packs: 1, paymentKey: 'pay-1' });
      const retry = await t.runTurn.execute(input);
      if (!retry.ok) throw new Error('not started');
      expect(last(await collect(retry.value))).toMatchObject({ type: 'done', status: 'kept' });
    });

    it('20 concurrent messages with 5 credits: exactly 5 turns run, the others get CREDITS.LIMIT_REACHED (one project and many)', async () => {
      for (const layout of ['one project', 'twenty projects'] as const) {
        const t = await createTurnTestKit();
        const projects = layout === 'one project' ? Array.from({ length: 20 }, () => t.projectId) : await Promise.all(Array.from({ length: 20 }, (_, i) => t.addProject(`p-${i}`)));
        for (let i = 0; i < 20; i++) t.assistant.answers.push({ operations: [{ type: 'write_file', path: `src/f${i}.ts`, content: `${i}` }] });
        const runs = await Promise.all(projects.map((projectId, i) => t.runTurn.execute(t.input(`Message ${i}`, { projectId }))));
        const endings = await Promise.all(runs.map(async (r) => (r.ok ? last(await collect(r.value)) : null)));
        const kept = endings.filter((e) => e?.type === 'done' && e.status === 'kept');
        const refused = endings.filter((e) => e?.type === 'error' && e.error.code === 'CREDITS.LIMIT_REACHED' && !e.started);
        expect({ layout, kept: kept.length, refused: refused.length }).toEqual({ layout, kept: 5, refused: 15 });
        expect(await t.credits()).toBe(0);
        expect(t.assistant.taskInputs).toHaveLength(5);
        const stored = (await Promise.all([...new Set(projects)].map((p) => t.turns.listByProject(p)))).flat();
        expect(stored.map((s) => s.status)).toEqual(Array(5).fill('kept'));
      }
    });
  });

  describe('idempotency and queueing', () => {
    it('a retried request replays the finished turn without charging again; another message with that key is a conflict', async () => {
      const t = await createTurnTestKit();
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] });
      const input = t.input('Add a');
      const first = await t.runTurn.execute(input);
      if (!first.ok) throw new Error('not started');
      const done = last(await collect(first.value));
      const again = await t.runTurn.execute(input);
      if (!again.ok) throw new Error('not replayed');
      expect(again.value.turnId).toBe(first.value.turnId);
      expect(await collect(again.value)).toEqual([{ type: 'turn', turnId: first.value.turnId, message: 'Add a' }, done]);
      expect(await t.credits()).toBe(4);
      expect(t.assistant.taskInputs).toHaveLength(1);
      const conflict = await t.runTurn.execute({ ...input, message: 'Something else' });
      expect(!conflict.ok && conflict.error.code).toBe('TURNS.IDEMPOTENCY_CONFLICT');
    });

    it('a retry while the turn runs is TURNS.IN_PROGRESS; a waiting plan replays its plan', async () => {
      const t = await createTurnTestKit();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const slowHost = t.host;
      const originalScan = slowHost.findErrors.bind(slowHost);
      slowHost.findErrors = async (id: string) => {
        await gate;
        return originalScan(id);
      };
      const input = t.input('Slow');
      const first = await t.runTurn.execute(input);
      if (!first.ok) throw new Error('not started');
      const retry = await t.runTurn.execute(input);
      expect(!retry.ok && retry.error.code).toBe('TURNS.IN_PROGRESS');
      release();
      await collect(first.value);

      t.assistant.plans.push(planOf(2));
      const planInput = t.input('Plan');
      const waiting = await t.runTurn.execute(planInput);
      if (!waiting.ok) throw new Error('not started');
      await collect(waiting.value);
      const replay = await t.runTurn.execute(planInput);
      if (!replay.ok) throw new Error('not replayed');
      expect(types(await collect(replay.value))).toEqual(['turn', 'plan', 'awaiting_approval']);
    });

    it('turns of one project run one at a time, in order; the second sees the first’s changes', async () => {
      const t = await createTurnTestKit();
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/first.ts', content: 'first' }] }, (input) => ({
        operations: input.files.some((f) => f.path === 'src/first.ts') ? [{ type: 'write_file', path: 'src/second.ts', content: 'saw first' }] : [],
      }));
      const [a, b] = await Promise.all([t.runTurn.execute(t.input('First')), t.runTurn.execute(t.input('Second'))]);
      if (!a.ok || !b.ok) throw new Error('not started');
      const [ea, eb] = await Promise.all([collect(a.value), collect(b.value)]);
      expect(last(ea)).toMatchObject({ status: 'kept' });
      expect(last(eb)).toMatchObject({ status: 'kept' });
      expect((await t.files())['src/second.ts']).toBe('saw first');
      expect((await t.host.versionHistory(t.projectId)).slice(0, 2).map((c) => c.message)).toEqual(['Second', 'First']);
      // The second turn's history holds the first.
      expect(t.assistant.taskInputs[1]?.history).toEqual([
        { role: 'user', content: 'First' },
        { role: 'assistant', content: 'Changed 1 file.' },
      ]);
    });
  });

  it("someone else's project is PROJECTS.NOT_FOUND, and so are its turns", async () => {
    const t = await createTurnTestKit();
    const started = await t.runTurn.execute({ ...t.input('Hi'), userId: 'mallory' });
    expect(!started.ok && started.error.code).toBe('PROJECTS.NOT_FOUND');
    const listed = await t.listTurns.execute({ userId: 'mallory', projectId: t.projectId });
    expect(!listed.ok && listed.error.code).toBe('PROJECTS.NOT_FOUND');
    const accept = await t.acceptTurnPlan.execute({ userId: t.userId, projectId: t.projectId, turnId: 'nope' });
    expect(!accept.ok && accept.error.code).toBe('TURNS.NOT_FOUND');
  });

  it('lists the chat history oldest first', async () => {
    const t = await createTurnTestKit();
    for (const message of ['One', 'Two']) {
      const r = await t.runTurn.execute(t.input(message));
      if (r.ok) await collect(r.value);
      t.kit.clock.advance(1000);
    }
    const listed = await t.listTurns.execute({ userId: t.userId, projectId: t.projectId });
    expect(listed.ok && listed.value.map((x) => [x.message, x.status])).toEqual([
      ['One', 'kept'],
      ['Two', 'kept'],
    ]);
  });
});

describe('RunTurn context budget', () => {
  it('keeps every request of a large project with a long history within contextLimitChars (listing, history and files together)', async () => {
    const limit = 20_000;
    const t = await createTurnTestKit({ settings: { contextLimitChars: limit } });
    // 3000 files (a listing of ~110 000 characters) and 4 earlier turns with long messages (a free account has 5 credits).
    for (let i = 0; i < 3000; i += 1) await t.host.writeFile(t.projectId, `src/features/feature-${String(i).padStart(4, '0')}/component-file.tsx`, `export const x${i} = ${i};\n`.repeat(20));
    for (let i = 0; i < 4; i += 1) {
      t.scriptErrors([]);
      t.assistant.answers.push({ text: `Answer ${i} `.repeat(600), operations: [{ type: 'write_file', path: `src/note-${i}.ts`, content: `export const n = ${i};\n` }] });
      const run = await t.runTurn.execute(t.input(`Earlier request ${i} `.repeat(400)));
      if (!run.ok) throw new Error(run.error.code);
      await collect(run.value);
    }
    t.scriptErrors([]);
    t.assistant.answers.push({ text: 'Done.', operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Big' }] });
    const run = await t.runTurn.execute(t.input('Rename the app to Big'));
    if (!run.ok) throw new Error(run.error.code);
    expect(last(await collect(run.value))).toMatchObject({ type: 'done', status: 'kept' });

    const sent = (input: { prompt: string; tree: readonly string[]; files: readonly { content: string }[]; history: readonly { content: string }[] }) =>
      input.prompt.length + input.tree.reduce((n, p) => n + p.length + 1, 0) + input.files.reduce((n, f) => n + f.content.length, 0) + input.history.reduce((n, m) => n + m.content.length, 0);
    const lastTask = t.assistant.taskInputs.at(-1);
    expect(lastTask).toBeDefined();
    if (!lastTask) return;
    expect(sent(lastTask)).toBeLessThanOrEqual(limit);
    for (const input of [...t.assistant.taskInputs, ...t.assistant.planInputs]) expect(sent(input)).toBeLessThanOrEqual(limit);
    // It still sees what matters: the entry points, the most recent history, and how much it does not see.
    expect(lastTask.files.map((f) => f.path)).toContain(APP);
    expect(lastTask.tree.at(-1)).toMatch(/^… and \d+ more files not listed$/);
    expect(lastTask.history.at(-1)?.content).toContain('Answer 3');
  }, 60_000);
});

describe('RunTurn when the assistant declines', () => {
  it('ends before anything is charged: its words are the reply, the outcome says nothing was used', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(aiFailure('AI.DECLINED', 'I cannot connect to Salesforce. I can build and change apps.'));
    const started = await t.runTurn.execute(t.input('Connect it to my Salesforce account'));
    if (!started.ok) throw new Error(started.error.code);
    const events = await collect(started.value);
    expect(last(events)).toEqual({ type: 'error', error: { code: 'AI.DECLINED', message: 'I cannot connect to Salesforce. I can build and change apps.' }, started: false });
    expect(events.some((e) => e.type === 'credits')).toBe(false);
    expect(await t.credits()).toBe(5);
    expect(t.assistant.taskInputs).toEqual([]);
    expect(await t.turns.findById(started.value.turnId)).toMatchObject({
      status: 'failed',
      failureCode: 'AI.DECLINED',
      reply: 'I cannot connect to Salesforce. I can build and change apps.',
      outcome: 'Nothing was changed, and no credit was used.',
      creditsCharged: 0,
    });
  });
});

describe('RunTurn and the project’s edited time', () => {
  it('a kept turn that changed files marks the project edited now; one that changed nothing does not', async () => {
    const t = await createTurnTestKit();
    const created = (await t.kit.projects.findById(t.projectId))?.updatedAt;
    t.kit.clock.advance(60_000);
    t.scriptErrors([]);
    t.assistant.answers.push({ text: 'Nothing to do.', operations: [] });
    const idle = await t.runTurn.execute(t.input('Is it fine?'));
    if (!idle.ok) throw new Error(idle.error.code);
    await collect(idle.value);
    expect((await t.kit.projects.findById(t.projectId))?.updatedAt).toEqual(created);

    t.kit.clock.advance(60_000);
    t.assistant.answers.push({ text: 'Renamed.', operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Chores' }] });
    const kept = await t.runTurn.execute(t.input('Call it Chores'));
    if (!kept.ok) throw new Error(kept.error.code);
    expect(last(await collect(kept.value))).toMatchObject({ type: 'done', status: 'kept' });
    expect((await t.kit.projects.findById(t.projectId))?.updatedAt).toEqual(t.kit.clock.now());
    expect((await t.kit.projects.findById(t.projectId))?.name).toBe('Project project-1');
  });
});
