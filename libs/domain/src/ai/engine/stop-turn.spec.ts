import { describe, expect, it } from '@jest/globals';
import type { AssistantEvent, TaskInput } from '../ai-assistant.port.js';
import { editPlanOf, planOf, ScriptedAiAssistant } from './testing/scripted-ai-assistant.js';
import { collect, createTurnTestKit, type TurnTestKit } from './testing/turn-test-kit.js';
import type { TurnEvent } from './turn-event.js';

const APP = 'src/App.tsx';
const last = (events: readonly TurnEvent[]) => events[events.length - 1];

/**
 * From the `task`-th task (0-based) on, the assistant answers only when stopped (as a provider
 * whose request is aborted): resolves once the turn waits there, with that task's credit debited.
 */
function holdAtTask(t: TurnTestKit, task: number): Promise<void> {
  const answer = ScriptedAiAssistant.prototype.runTask.bind(t.assistant);
  let calls = 0;
  let reached: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (reached = resolve));
  t.assistant.runTask = (input: TaskInput) => {
    calls += 1;
    if (calls <= task) return answer(input);
    reached();
    return (async function* (): AsyncIterable<AssistantEvent> {
      yield { type: 'text', text: 'Working…' };
      await new Promise<void>((resolve) => input.signal?.addEventListener('abort', () => resolve()));
      yield { type: 'error', error: { code: 'AI.ABORTED', message: 'The request was aborted.' } };
    })();
  };
  return held;
}

const ref = (t: TurnTestKit, turnId: string) => ({ userId: t.userId, projectId: t.projectId, turnId });

describe('StopTurn (issue #14)', () => {
  it('stops a plan in its second task: files as before, the unfinished task refunded, the finished one kept charged', async () => {
    const t = await createTurnTestKit();
    t.scriptErrors([]);
    const before = await t.files();
    const versions = await t.host.versionHistory(t.projectId);
    t.assistant.plans.push(editPlanOf(3));
    t.assistant.answers.push({ operations: [{ type: 'edit_file', path: APP, search: 'Welcome to your Kiln app', replace: 'Half' }, { type: 'write_file', path: 'src/New.tsx', content: 'x' }] });
    const held = holdAtTask(t, 1);
    const started = await t.runTurn.execute(t.input('Three steps', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    const events = collect(started.value);
    await held;
    expect(await t.credits()).toBe(3);

    const stopped = await t.stopTurn.execute(ref(t, started.value.turnId));

    const message = 'Stopped. Your app is as it was before this message; 1 credit refunded.';
    expect(stopped).toEqual({ ok: true, value: expect.objectContaining({ status: 'reverted', outcome: message, creditsCharged: 2, creditsRefunded: 1 }) });
    const all = await events;
    expect(last(all)).toEqual({ type: 'done', status: 'reverted', message });
    expect(all).toContainEqual({ type: 'task', taskId: 't2', index: 1, title: 'Task 2', state: 'failed' });
    expect(all).toContainEqual({ type: 'credits', charged: 2, refunded: 1, creditsRemaining: 4 });
    // The third task was never charged or asked for.
    expect(t.assistant.taskInputs.map((i) => i.task?.id)).toEqual(['t1']);
    expect(await t.files()).toEqual(before);
    expect(await t.credits()).toBe(4);
    expect(t.filesChanged.of(t.projectId).at(-1)).toEqual({ paths: [], reason: 'write' });
    expect(await t.host.versionHistory(t.projectId)).toEqual(versions);
    expect(await t.journal.entries(started.value.turnId)).toEqual([]);
    expect(t.running.isRunning(started.value.turnId)).toBe(false);
  });

  it('stops a one-task message while the model answers: its credit back, nothing changed', async () => {
    const t = await createTurnTestKit();
    const held = holdAtTask(t, 0);
    const started = await t.runTurn.execute(t.input('Call it Chores'));
    if (!started.ok) throw new Error(started.error.code);
    await held;
    const stopped = await t.stopTurn.execute(ref(t, started.value.turnId));
    expect(stopped.ok && stopped.value.outcome).toBe('Stopped. Your app is as it was before this message; 1 credit refunded.');
    expect(await t.credits()).toBe(5);
  });

  it('is idempotent, and a finished turn answers as it is', async () => {
    const t = await createTurnTestKit();
    const held = holdAtTask(t, 0);
    const started = await t.runTurn.execute(t.input('Call it Chores'));
    if (!started.ok) throw new Error(started.error.code);
    await held;
    const [a, b] = await Promise.all([t.stopTurn.execute(ref(t, started.value.turnId)), t.stopTurn.execute(ref(t, started.value.turnId))]);
    expect(a).toEqual(b);
    const again = await t.stopTurn.execute(ref(t, started.value.turnId));
    expect(again.ok && again.value).toMatchObject({ status: 'reverted', creditsRefunded: 1 });
    expect(await t.credits()).toBe(5);

    const kit = await createTurnTestKit();
    kit.scriptErrors([]);
    kit.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/A.tsx', content: 'a' }] });
    const kept = await kit.runTurn.execute(kit.input('Add A'));
    if (!kept.ok) throw new Error(kept.error.code);
    await collect(kept.value);
    const late = await kit.stopTurn.execute(ref(kit, kept.value.turnId));
    expect(late.ok && late.value).toMatchObject({ status: 'kept', outcome: 'Changed 1 file.' });
    expect(await kit.files()).toMatchObject({ 'src/A.tsx': 'a' });
  });

  it('stops a queued turn at once, without waiting for the running one, which goes on', async () => {
    const t = await createTurnTestKit();
    t.scriptErrors([]);
    const held = holdAtTask(t, 0);
    const running = await t.runTurn.execute(t.input('First'));
    if (!running.ok) throw new Error(running.error.code);
    const runningEvents = collect(running.value);
    await held;
    const queued = await t.runTurn.execute(t.input('Second'));
    if (!queued.ok) throw new Error(queued.error.code);

    const stopped = await t.stopTurn.execute(ref(t, queued.value.turnId));
    expect(stopped.ok && stopped.value).toMatchObject({ status: 'reverted', outcome: 'Stopped. Your app is as it was before this message; 0 credits refunded.', creditsCharged: 0 });
    expect(last(await collect(queued.value))).toMatchObject({ type: 'done', status: 'reverted' });
    expect(await t.turns.findById(running.value.turnId)).toMatchObject({ status: 'running' });

    await t.stopTurn.execute(ref(t, running.value.turnId));
    expect(last(await runningEvents)).toMatchObject({ type: 'done', status: 'reverted' });
    // The stopped queued turn never ran once the lock was free.
    expect(t.assistant.planInputs.map((p) => p.prompt)).toEqual(['First']);
    expect(await t.credits()).toBe(5);
  });

  it('a plan waiting for approval is answered as it is (Cancel drops it)', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(planOf(2));
    const started = await t.runTurn.execute(t.input('Two steps'));
    if (!started.ok) throw new Error(started.error.code);
    await collect(started.value);
    const answer = await t.stopTurn.execute(ref(t, started.value.turnId));
    expect(answer.ok && answer.value.status).toBe('awaiting_approval');
  });

  it("is the owner's only: another project's or user's turn is not found", async () => {
    const t = await createTurnTestKit();
    const held = holdAtTask(t, 0);
    const started = await t.runTurn.execute(t.input('Call it Chores'));
    if (!started.ok) throw new Error(started.error.code);
    await held;
    expect(await t.stopTurn.execute({ ...ref(t, started.value.turnId), userId: 'mallory' })).toMatchObject({ ok: false, error: { code: 'PROJECTS.NOT_FOUND' } });
    const other = await t.addProject('project-2');
    expect(await t.stopTurn.execute({ ...ref(t, started.value.turnId), projectId: other })).toMatchObject({ ok: false, error: { code: 'TURNS.NOT_FOUND' } });
    expect(await t.stopTurn.execute(ref(t, 'no-such-turn'))).toMatchObject({ ok: false, error: { code: 'TURNS.NOT_FOUND' } });
    expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'running' });
    await t.stopTurn.execute(ref(t, started.value.turnId));
  });
});
