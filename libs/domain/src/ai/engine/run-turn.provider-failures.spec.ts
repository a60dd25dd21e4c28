// RunTurn when the model provider fails: what the turn keeps, refunds and says (split from run-turn.spec.ts).
import { describe, expect, it } from '@jest/globals';
import { aiFailure } from '../ai-assistant.port.js';
import { replaceOnce } from '../operations/file-operation.js';
import { planOf } from './testing/scripted-ai-assistant.js';
import { collect, createTurnTestKit } from './testing/turn-test-kit.js';
import type { TurnEvent } from './turn-event.js';

const APP = 'src/App.tsx';
const STARTER_APP = 'export function App() {\n  return <h1>Welcome to your Kiln app</h1>;\n}\n';

const types = (events: readonly TurnEvent[]) => events.map((e) => (e.type === 'phase' ? `phase:${e.phase}` : e.type === 'task' ? `task:${e.state}` : e.type));
const last = (events: readonly TurnEvent[]) => events[events.length - 1];

describe('RunTurn provider failures', () => {
  it('a failing provider refunds the task’s credit and ends with an error', async () => {
    const t = await createTurnTestKit();
    const before = await t.files();
    t.assistant.answers.push({ text: 'Let me', operations: [{ type: 'write_file', path: APP, content: 'half' }], error: aiFailure('AI.PROVIDER_FAILED', 'Overloaded', 529) });
    const started = await t.runTurn.execute(t.input('Change it'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(last(events)).toEqual({ type: 'error', started: true, error: { code: 'AI.PROVIDER_FAILED', message: 'Overloaded', status: 529 } });
    expect(events).toContainEqual({ type: 'credits', charged: 1, refunded: 1, creditsRemaining: 5 });
    expect(events).toContainEqual({ type: 'task', taskId: 't1', index: 0, title: 'Make the change', state: 'failed' });
    expect(await t.files()).toEqual(before);
    expect(await t.credits()).toBe(5);
    expect(await t.turns.findById(started.value.turnId)).toMatchObject({ status: 'failed', failureCode: 'AI.PROVIDER_FAILED' });
  });

  it('a provider failure in a later task undoes the earlier tasks and refunds them all', async () => {
    const t = await createTurnTestKit();
    const before = await t.files();
    t.assistant.plans.push(planOf(2));
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }] }, { error: aiFailure('AI.PROVIDER_FAILED', 'Down') });
    const started = await t.runTurn.execute(t.input('Build', { autoRun: true }));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(last(events)).toMatchObject({ type: 'error', started: true, error: { code: 'AI.PROVIDER_FAILED' } });
    expect(events).toContainEqual({ type: 'credits', charged: 2, refunded: 2, creditsRemaining: 5 });
    expect(await t.files()).toEqual(before);
  });

  it('a failed plan charges nothing', async () => {
    const t = await createTurnTestKit();
    t.assistant.plans.push(aiFailure('AI.PROVIDER_FAILED', 'No plan'));
    const started = await t.runTurn.execute(t.input('Build'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(last(events)).toMatchObject({ type: 'error', started: false, error: { code: 'AI.PROVIDER_FAILED' } });
    expect(types(events)).not.toContain('credits');
    expect(await t.credits()).toBe(5);
  });

  it('a sandbox failure mid-turn undoes what was written and refunds', async () => {
    const t = await createTurnTestKit({
      host: (inner) =>
        new Proxy(inner, {
          get(target, property, receiver) {
            if (property === 'writeFile') {
              return async (id: string, path: string, content: string) => {
                if (path === 'src/b.ts') throw new Error('disk full');
                return target.writeFile(id, path, content);
              };
            }
            const value = Reflect.get(target, property, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          },
        }),
    });
    const before = await t.files();
    t.assistant.answers.push({ operations: [{ type: 'write_file', path: 'src/a.ts', content: 'a' }, { type: 'write_file', path: 'src/b.ts', content: 'b' }] });
    const started = await t.runTurn.execute(t.input('Write two'));
    if (!started.ok) throw new Error('not started');
    const events = await collect(started.value);
    expect(last(events)).toMatchObject({ type: 'error', started: true, error: { code: 'TURNS.FAILED' }, cause: expect.any(Error) });
    expect(await t.files()).toEqual(before);
    expect(await t.credits()).toBe(5);
  });
});

it('an edit whose search text is missing asks again for the whole file (needFullFile), never guessing', async () => {
  const t = await createTurnTestKit();
  t.assistant.answers.push(
    { operations: [{ type: 'edit_file', path: APP, search: 'not in the file', replace: 'x' }, { type: 'write_file', path: 'src/other.ts', content: 'o' }] },
    (input) => {
      const app = input.files.find((f) => f.path === APP)?.content ?? '';
      return { operations: [{ type: 'write_file', path: APP, content: replaceOnce(app, 'Welcome to your Kiln app', 'Whole file') }, { type: 'write_file', path: 'src/other.ts', content: 'o' }] };
    },
  );
  const started = await t.runTurn.execute(t.input('Change the heading'));
  if (!started.ok) throw new Error('not started');
  const events = await collect(started.value);
  expect(t.assistant.taskInputs).toHaveLength(2);
  expect(t.assistant.taskInputs[0]?.needFullFile).toBeUndefined();
  expect(t.assistant.taskInputs[1]?.needFullFile).toBe(APP);
  expect(t.assistant.taskInputs[1]?.files.map((f) => f.path)).toContain(APP);
  // Nothing of the first answer was applied; the second one was.
  expect(events.filter((e) => e.type === 'operation')).toEqual([
    { type: 'operation', taskId: 't1', operation: 'write_file', path: APP },
    { type: 'operation', taskId: 't1', operation: 'write_file', path: 'src/other.ts' },
  ]);
  expect((await t.files())[APP]).toContain('Whole file');
  expect(last(events)).toMatchObject({ type: 'done', status: 'kept' });
  expect(await t.credits()).toBe(4);
});

it('an edit that still cannot apply after the full-file asks is left out', async () => {
  const t = await createTurnTestKit();
  const bad = { operations: [{ type: 'edit_file' as const, path: APP, search: 'missing', replace: 'x' }, { type: 'write_file' as const, path: 'src/ok.ts', content: 'ok' }] };
  t.assistant.answers.push(bad, bad, bad);
  const started = await t.runTurn.execute(t.input('Change'));
  if (!started.ok) throw new Error('not started');
  expect(last(await collect(started.value))).toMatchObject({ type: 'done', status: 'kept' });
  expect(t.assistant.taskInputs.map((i) => i.needFullFile)).toEqual([undefined, APP, APP]);
  const files = await t.files();
  expect(files[APP]).toBe(STARTER_APP);
  expect(files['src/ok.ts']).toBe('ok');
});
