import { describe, expect, it } from '@jest/globals';
import { planOf } from './testing/scripted-ai-assistant.js';
import { collect, createTurnTestKit, type TurnTestKit } from './testing/turn-test-kit.js';
import { CANNOT_EDIT_AS_NEW_APP } from './replace-app-rule.js';
import { DECLINED_OUTCOME } from './turn-ending.js';
import type { TurnEvent } from './turn-event.js';

const APP = 'src/App.tsx';
const last = (events: readonly TurnEvent[]) => events[events.length - 1];

/** A project that has an app: one kept turn with a version (1 credit used). */
async function withAnApp(): Promise<TurnTestKit> {
  const t = await createTurnTestKit();
  t.scriptErrors([]);
  t.assistant.plans.push(planOf(1));
  t.assistant.answers.push({ operations: [{ type: 'write_file', path: APP, content: 'export function App() {\n  return <h1>Recipes</h1>;\n}\n' }] });
  const started = await t.runTurn.execute(t.input('A recipe app', { autoRun: true }));
  if (!started.ok) throw new Error(started.error.code);
  expect(last(await collect(started.value))).toMatchObject({ type: 'done', status: 'kept', commitHash: expect.any(String) });
  return t;
}

describe('RunTurn: a new app never silently replaces the app (issue #14)', () => {
  it('declines a new-app plan for an edit request on a project with an app: free, nothing changed, an honest answer', async () => {
    const t = await withAnApp();
    const files = await t.files();
    t.assistant.plans.push(planOf(2));
    const started = await t.runTurn.execute(t.input('save my favourite recipes with a heart button', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    const events = await collect(started.value);

    expect(last(events)).toMatchObject({ type: 'error', started: false, error: { code: 'AI.DECLINED', message: CANNOT_EDIT_AS_NEW_APP } });
    expect(events.some((e) => e.type === 'plan' || e.type === 'credits' || e.type === 'task')).toBe(false);
    expect(t.assistant.taskInputs).toHaveLength(1); // only the first turn's task ran
    expect(await t.credits()).toBe(4);
    expect(await t.files()).toEqual(files);
    expect(await t.turns.findById(started.value.turnId)).toMatchObject({
      status: 'failed',
      failureCode: 'AI.DECLINED',
      reply: CANNOT_EDIT_AS_NEW_APP,
      outcome: DECLINED_OUTCOME,
      creditsCharged: 0,
    });
  });

  it('an asked-for new app waits for approval even with auto-run, marked replacesApp; accepting it runs it', async () => {
    const t = await withAnApp();
    t.assistant.plans.push(planOf(2));
    const started = await t.runTurn.execute(t.input('Start over with a new app: a habit tracker', { autoRun: true }));
    if (!started.ok) throw new Error(started.error.code);
    const events = await collect(started.value);

    expect(events).toContainEqual({ type: 'plan', plan: { ...planOf(2), replacesApp: true }, cost: 2, replacesApp: true });
    expect(last(events)).toEqual({ type: 'awaiting_approval', turnId: started.value.turnId, cost: 2 });
    expect(await t.credits()).toBe(4);
    expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'awaiting_approval', plan: { kind: 'build', replacesApp: true } });

    const accepted = await t.acceptTurnPlan.execute({ userId: t.userId, projectId: t.projectId, turnId: started.value.turnId });
    if (!accepted.ok) throw new Error(accepted.error.code);
    expect(last(await collect(accepted.value))).toMatchObject({ type: 'done', status: 'kept' });
    expect(await t.credits()).toBe(2);
  });

  it('a one-task new app asked for also waits (a single task would otherwise run at once)', async () => {
    const t = await withAnApp();
    t.assistant.plans.push(planOf(1));
    const started = await t.runTurn.execute(t.input('replace the app with a quiz', { autoRun: false }));
    if (!started.ok) throw new Error(started.error.code);
    expect(last(await collect(started.value))).toMatchObject({ type: 'awaiting_approval', cost: 1 });
  });

  it('a first build on the starter and edits of an app run as before (replacesApp false)', async () => {
    const t = await createTurnTestKit();
    t.scriptErrors([]);
    t.assistant.plans.push(planOf(1));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: APP, content: 'export function App() {\n  return <h1>Recipes</h1>;\n}\n' }] });
    const first = await t.runTurn.execute(t.input('A recipe app', { autoRun: true }));
    if (!first.ok) throw new Error(first.error.code);
    const firstEvents = await collect(first.value);
    expect(firstEvents).toContainEqual(expect.objectContaining({ type: 'plan', replacesApp: false }));
    expect(last(firstEvents)).toMatchObject({ type: 'done', status: 'kept' });

    t.assistant.plans.push({ ...planOf(1), kind: 'edit' });
    t.assistant.answers.push({ operations: [{ type: 'edit_file', path: APP, search: 'Recipes', replace: 'My recipes' }] });
    const edit = await t.runTurn.execute(t.input('save my favourite recipes with a heart button', { autoRun: true }));
    if (!edit.ok) throw new Error(edit.error.code);
    expect(last(await collect(edit.value))).toMatchObject({ type: 'done', status: 'kept' });
  });

  it('a project whose only turns were reverted or declined has no app yet: a build plan runs', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push({ code: 'AI.DECLINED', message: 'I cannot do that.' });
    const declined = await t.runTurn.execute(t.input('hello'));
    if (!declined.ok) throw new Error(declined.error.code);
    await collect(declined.value);
    t.scriptErrors([]);
    t.assistant.plans.push(planOf(1));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/Shop.tsx', content: 'export const Shop = 1;\n' }] });
    const build = await t.runTurn.execute(t.input('A shop', { autoRun: true }));
    if (!build.ok) throw new Error(build.error.code);
    expect(last(await collect(build.value))).toMatchObject({ type: 'done', status: 'kept' });
  });
});
