import { describe, expect, it } from '@jest/globals';
import type { AssistantEvent, TaskInput } from '../ai-assistant.port.js';
import type { SandboxHost } from '../../sandbox/sandbox-host.port.js';
import type { InMemorySandboxHost } from '../../testing/in-memory-sandbox-host.js';
import { editPlanOf, planOf, ScriptedAiAssistant } from './testing/scripted-ai-assistant.js';
import { collect, createTurnTestKit, type TurnTestKit } from './testing/turn-test-kit.js';
import { folderPaths } from '../context/turn-context.js';
import type { Turn } from './turn.entity.js';
import { RecoverInterruptedTurns } from './recover-interrupted-turns.use-case.js';
import type { TurnRepository } from './turn-repository.port.js';

const APP = 'src/App.tsx';
const INTERRUPTED = 'This message was interrupted when the server restarted. Nothing was kept and any credits were refunded.';

/** A promise that never settles: the process "stops" where it is awaited. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** An answer that never comes (the provider call in flight when the process stopped). */
const hangingAnswer = (): AsyncIterable<AssistantEvent> => ({ [Symbol.asyncIterator]: () => ({ next: () => never() }) });

/**
 * From the `task`-th task (0-based) on, the assistant never answers, as if the process had stopped
 * while waiting for it: that task's credit is already debited, the earlier tasks' files written.
 * Resolves once the turn is stuck there.
 */
function stopAtTask(t: TurnTestKit, task: number): Promise<void> {
  const answer = ScriptedAiAssistant.prototype.runTask.bind(t.assistant);
  let calls = 0;
  let reached: () => void = () => undefined;
  const stuck = new Promise<void>((resolve) => (reached = resolve));
  t.assistant.runTask = (input: TaskInput) => {
    calls += 1;
    if (calls <= task) return answer(input);
    reached();
    return hangingAnswer();
  };
  return stuck;
}

async function foldersOf(t: TurnTestKit, projectId = t.projectId): Promise<string[]> {
  return folderPaths(await t.host.getTree(projectId, '.', [])).sort();
}

async function startInterrupted(t: TurnTestKit, message: string, projectId = t.projectId): Promise<string> {
  const started = await t.runTurn.execute(t.input(message, { projectId, autoRun: true }));
  if (!started.ok) throw new Error(started.error.code);
  return started.value.turnId;
}

/** A kept one-task turn that renames the starter app. */
async function keptTurn(t: TurnTestKit): Promise<Turn> {
  t.scriptErrors([]);
  t.assistant.plans.push(planOf(1));
  t.assistant.answers.push({ operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Chores' }] });
  const started = await t.runTurn.execute(t.input('Call it Chores', { autoRun: true }));
  if (!started.ok) throw new Error(started.error.code);
  const events = await collect(started.value);
  expect(events[events.length - 1]).toMatchObject({ type: 'done', status: 'kept' });
  const kept = await t.turns.findById(started.value.turnId);
  if (kept === null) throw new Error('no kept turn');
  return kept;
}

describe('RecoverInterruptedTurns', () => {
  it('undoes a turn interrupted after writing files and charging 2 credits: files and folders exactly as before, credits back, failed', async () => {
    const t = await createTurnTestKit();
    const kept = await keptTurn(t);
    expect(await t.credits()).toBe(4);
    const filesBefore = await t.files();
    const foldersBefore = await foldersOf(t);

    // An edit of the kept app (a 'build' plan on it would be declined: replace-app-rule.ts).
    t.assistant.plans.push(editPlanOf(3));
    t.assistant.answers.push({
      operations: [
        { type: 'edit_file', path: APP, search: 'Chores', replace: 'Half-built' },
        { type: 'write_file', path: 'src/components/ui/Button.tsx', content: 'export const Button = 1;\n' },
        { type: 'write_file', path: 'README.md', content: '# New\n' },
        { type: 'delete_file', path: 'index.html' },
      ],
    });
    const stuck = stopAtTask(t, 1);
    const turnId = await startInterrupted(t, 'Build the shop');
    await stuck;
    // The process "stops" here: task 0 applied, task 1 charged and waiting for the provider.
    expect(await t.credits()).toBe(2);
    expect(await t.files()).not.toEqual(filesBefore);
    expect(await t.turns.findById(turnId)).toMatchObject({ status: 'running', creditsCharged: 0 });

    const report = await t.recoverInterruptedTurns.execute();

    expect(report.ok).toBe(true);
    if (!report.ok) return;
    expect(report.value.unrecovered).toEqual([]);
    expect(report.value.recovered.map((r) => [r.turn.id, r.files])).toEqual([[turnId, 'restored']]);
    // The builder and the index hear that anything may have changed (once, after the restore).
    expect(t.filesChanged.of(t.projectId).at(-1)).toEqual({ paths: [], reason: 'write' });
    expect(await t.files()).toEqual(filesBefore);
    expect(await foldersOf(t)).toEqual(foldersBefore);
    expect(await t.credits()).toBe(4);
    const recovered = await t.turns.findById(turnId);
    expect(recovered).toMatchObject({
      status: 'failed',
      failureCode: 'TURNS.INTERRUPTED',
      outcome: INTERRUPTED,
      creditsCharged: 2,
      creditsRefunded: 2,
      updatedAt: t.kit.clock.now(),
    });
    expect(report.value.recovered[0]?.turn).toEqual(recovered);
    expect(await t.journal.entries(turnId)).toEqual([]);
    // The kept turn is left alone: still kept, its credit not refunded, its change still there.
    expect(await t.turns.findById(kept.id)).toEqual(kept);
    expect((await t.files())[APP]).toContain('Chores');
  });

  it('running it twice is harmless: nothing is refunded twice', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(planOf(2));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] });
    const stuck = stopAtTask(t, 1);
    const turnId = await startInterrupted(t, 'Two tasks');
    await stuck;
    expect(await t.credits()).toBe(3);

    await t.recoverInterruptedTurns.execute();
    const stored = await t.turns.findById(turnId);
    const again = await t.recoverInterruptedTurns.execute();

    expect(again).toEqual({ ok: true, value: { recovered: [], unrecovered: [] } });
    expect(await t.credits()).toBe(5);
    expect(await t.turns.findById(turnId)).toEqual(stored);
    const refunds = (await t.kit.ledger.entries(t.userId)).filter((e) => e.kind === 'refund');
    expect(refunds.map((e) => e.key)).toEqual([`refund:turn:${turnId}:task:0`, `refund:turn:${turnId}:task:1`]);
  });

  it('a recovery that itself stopped before storing the turn is finished by the next one, without a second refund', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(planOf(2));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] });
    const stuck = stopAtTask(t, 1);
    const turnId = await startInterrupted(t, 'Two tasks');
    await stuck;
    const filesBefore = { ...(await t.files()) };
    delete filesBefore['src/a.ts'];

    // The first recovery restores the files and refunds, then cannot store the turn.
    const failing: TurnRepository = Object.assign(Object.create(t.turns) as TurnRepository, {
      saveIf: async () => {
        throw new Error('database went away');
      },
    });
    const first = await new RecoverInterruptedTurns({ ...t.deps, turns: failing }).execute();
    expect(first.ok && first.value.unrecovered.map((u) => [u.turnId, (u.cause as Error).message])).toEqual([[turnId, 'database went away']]);
    expect(await t.credits()).toBe(5);
    expect(await t.turns.findById(turnId)).toMatchObject({ status: 'running' });
    expect(await t.journal.entries(turnId)).not.toEqual([]);

    const second = await t.recoverInterruptedTurns.execute();
    expect(second.ok && second.value.recovered.map((r) => r.turn)).toEqual([expect.objectContaining({ id: turnId, status: 'failed', creditsCharged: 2, creditsRefunded: 2 })]);
    expect(await t.credits()).toBe(5);
    expect(await t.files()).toEqual(filesBefore);
  });

  it('a turn stopped in the middle of a batch: the paths it had not written yet are undone too', async () => {
    let writes = 0;
    let stopped: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (stopped = resolve));
    const t = await createTurnTestKit({
      host: (inner) =>
        Object.assign(Object.create(inner) as InMemorySandboxHost, {
          writeFile: async (id: string, path: string, content: string) => {
            writes += 1;
            if (writes === 2) {
              stopped();
              return never();
            }
            return inner.writeFile(id, path, content);
          },
        }),
    });
    const filesBefore = await t.files();
    const foldersBefore = await foldersOf(t);
    t.assistant.plans.push(planOf(1));
    t.assistant.answers.push({
      operations: [
        { type: 'write_file', path: 'src/pages/Home.tsx', content: 'home' },
        { type: 'write_file', path: 'src/pages/About.tsx', content: 'about' },
        { type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Never written' },
      ],
    });
    const turnId = await startInterrupted(t, 'Add pages');
    await stuck;
    // Mid-batch, the journal already holds the whole batch's pre-images and the folders there were.
    expect(new Set(await t.journal.entries(turnId))).toEqual(
      new Set([
        { kind: 'folder', path: 'src' },
        { kind: 'file', path: 'src/pages/Home.tsx', before: null },
        { kind: 'file', path: 'src/pages/About.tsx', before: null },
        { kind: 'file', path: APP, before: filesBefore[APP] },
      ]),
    );
    // One of the three was written when the process stopped.
    const now = await t.files();
    expect([APP, 'src/pages/Home.tsx', 'src/pages/About.tsx'].filter((p) => now[p] !== filesBefore[p])).toHaveLength(1);

    const report = await new RecoverInterruptedTurns({ ...t.deps, sandbox: t.host }).execute();

    expect(report.ok && report.value.recovered.map((r) => r.files)).toEqual(['restored']);
    expect(await t.files()).toEqual(filesBefore);
    expect(await foldersOf(t)).toEqual(foldersBefore);
    expect(await t.credits()).toBe(5);
  });

  it('a turn stopped inside a command: files the command created go too (every file was recorded before it)', async () => {
    let stopped: () => void = () => undefined;
    const stuck = new Promise<void>((resolve) => (stopped = resolve));
    const t = await createTurnTestKit({
      host: (inner) =>
        Object.assign(Object.create(inner) as InMemorySandboxHost, {
          // A command that writes files and never returns (npm install when the process died).
          runCommand: async (id: string) => {
            await inner.writeFile(id, 'generated/out/bundle.js', 'bundle');
            await inner.writeFile(id, APP, 'overwritten by the command');
            stopped();
            return never();
          },
        }),
    });
    const filesBefore = await t.files();
    const foldersBefore = await foldersOf(t);
    t.assistant.plans.push(planOf(1));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }, { type: 'run_command', command: 'npm run build' }] });
    const turnId = await startInterrupted(t, 'Build it');
    await stuck;
    expect(await t.journal.entries(turnId)).toContainEqual({ kind: 'every_file' });
    expect((await t.files())['generated/out/bundle.js']).toBe('bundle');

    await new RecoverInterruptedTurns({ ...t.deps, sandbox: t.host }).execute();

    expect(await t.files()).toEqual(filesBefore);
    expect(await foldersOf(t)).toEqual(foldersBefore);
  });

  it('a queued turn (an accepted plan that never started) is failed; nothing was charged or changed', async () => {
    const t = await createTurnTestKit();
    t.scriptErrors([]);
    t.assistant.plans.push(planOf(3));
    const started = await t.runTurn.execute(t.input('Plan it'));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);
    const waiting = await t.turns.findById(started.value.turnId);
    if (waiting === null) throw new Error('no turn');
    await t.turns.save({ ...waiting, status: 'queued' });
    const filesBefore = await t.files();
    const calls: string[] = [];
    const watched: SandboxHost = Object.assign(Object.create(t.host) as SandboxHost, {
      getTree: async (...args: Parameters<SandboxHost['getTree']>) => {
        calls.push('getTree');
        return t.host.getTree(...args);
      },
    });

    const report = await new RecoverInterruptedTurns({ ...t.deps, sandbox: watched }).execute();

    expect(report.ok && report.value.recovered.map((r) => [r.files, r.turn.status, r.turn.creditsCharged, r.turn.creditsRefunded])).toEqual([['untouched', 'failed', 0, 0]]);
    expect(calls).toEqual([]);
    expect(await t.files()).toEqual(filesBefore);
    expect(await t.credits()).toBe(5);
    expect((await t.kit.ledger.entries(t.userId)).filter((e) => e.kind === 'refund')).toEqual([]);
  });

  it('a sandbox that no longer exists: the turn is still refunded and failed', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(planOf(2));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] });
    const stuck = stopAtTask(t, 1);
    const turnId = await startInterrupted(t, 'Two tasks');
    await stuck;
    await t.host.cleanup(t.projectId);

    const report = await t.recoverInterruptedTurns.execute();

    expect(report.ok && report.value.recovered.map((r) => [r.turn.id, r.files, r.turn.status])).toEqual([[turnId, 'sandbox_gone', 'failed']]);
    expect(await t.credits()).toBe(5);
    expect(await t.journal.entries(turnId)).toEqual([]);
  });

  it('one turn that cannot be undone does not stop the others; it stays running with its journal until a later start', async () => {
    const t = await createTurnTestKit();
    const other = await t.addProject('project-2');
    const filesBefore = { one: await t.files(), two: await t.files(other) };
    for (const projectId of [t.projectId, other]) {
      t.assistant.plans.push(planOf(2));
      t.assistant.answers.push({ operations: [{ type: 'write_file', path: APP, content: `changed in ${projectId}` }] });
      const stuck = stopAtTask(t, 1);
      await startInterrupted(t, `Change ${projectId}`, projectId);
      await stuck;
    }
    expect(await t.credits()).toBe(1);
    const [first, second] = await t.turns.listInProgress();
    if (first === undefined || second === undefined) throw new Error('two turns expected');
    // The first project's files cannot be written back now (the disk is full, say).
    const broken: SandboxHost = Object.assign(Object.create(t.host) as SandboxHost, {
      writeFile: async (id: string, path: string, content: string) => {
        if (id === first.projectId) throw new Error('no space left on device');
        return t.host.writeFile(id, path, content);
      },
    });

    const report = await new RecoverInterruptedTurns({ ...t.deps, sandbox: broken }).execute();

    expect(report.ok && report.value.unrecovered.map((u) => [u.turnId, (u.cause as Error).message])).toEqual([[first.id, 'no space left on device']]);
    expect(report.ok && report.value.recovered.map((r) => r.turn.id)).toEqual([second.id]);
    expect(await t.files(other)).toEqual(filesBefore.two);
    expect(await t.turns.findById(first.id)).toMatchObject({ status: 'running' });
    expect(await t.journal.entries(first.id)).not.toEqual([]);
    // Both turns' credits are back: the user never pays for an interrupted turn.
    expect(await t.credits()).toBe(5);

    const later = await t.recoverInterruptedTurns.execute();

    expect(later.ok && later.value.recovered.map((r) => [r.turn.id, r.files, r.turn.creditsRefunded])).toEqual([[first.id, 'restored', 2]]);
    expect(await t.files()).toEqual(filesBefore.one);
    expect(await t.credits()).toBe(5);
  });
});
