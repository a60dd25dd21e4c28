import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { folderPaths } from '../context/turn-context.js';
import { batches, initialFiles, model, projectWith } from '../../testing/turn-arbitraries.js';
import { codeError, collect, createTurnTestKit } from './testing/turn-test-kit.js';

describe('RunTurn properties', () => {
  it('a reverted turn leaves any project exactly as it was (files and folders), with every credit back', async () => {
    await fc.assert(
      fc.asyncProperty(initialFiles, batches, async (files, answers) => {
        const t = await createTurnTestKit({ settings: { repairRounds: 0, fullFileAsks: 0 } });
        const projectId = await projectWith(t, files);
        const foldersBefore = folderPaths(await t.host.getTree(projectId, '.', [])).sort();
        t.scriptErrors([], projectId);
        t.assistant.plans.push({ kind: 'build', modules: [], tasks: answers.map((_, i) => ({ id: `t${i}`, moduleId: 'm', title: `T${i}`, description: '' })) });
        answers.forEach((operations, i) =>
          t.assistant.answers.push(() => {
            if (i === answers.length - 1) t.scriptErrors([codeError('broken')], projectId);
            return { operations };
          }),
        );
        const started = await t.runTurn.execute(t.input('Change things', { projectId, autoRun: true }));
        if (!started.ok) throw new Error(started.error.code);
        const events = await collect(started.value);
        const end = events[events.length - 1];
        // Kept only when the operations cancel out (nothing to check); then every task was paid.
        let modelled = new Map(Object.entries(files));
        for (const batch of answers) modelled = model(modelled, batch);
        const netChange = JSON.stringify([...modelled].sort()) !== JSON.stringify(Object.entries(files).sort());
        expect(end).toMatchObject({ type: 'done', status: netChange ? 'reverted' : expect.any(String) });
        expect(await t.files(projectId)).toEqual(files);
        expect(folderPaths(await t.host.getTree(projectId, '.', [])).sort()).toEqual(foldersBefore);
        expect(await t.credits()).toBe(end?.type === 'done' && end.status === 'reverted' ? 5 : 5 - answers.length);
      }),
      { numRuns: 150 },
    );
  });

  it('a kept turn leaves the files the pure rule gives (operations that cannot apply are left out)', async () => {
    await fc.assert(
      fc.asyncProperty(initialFiles, batches, async (files, answers) => {
        const t = await createTurnTestKit({ settings: { fullFileAsks: 0 } });
        const projectId = await projectWith(t, files);
        t.assistant.plans.push({ kind: 'build', modules: [], tasks: answers.map((_, i) => ({ id: `t${i}`, moduleId: 'm', title: `T${i}`, description: '' })) });
        for (const operations of answers) t.assistant.answers.push({ operations });
        const started = await t.runTurn.execute(t.input('Change things', { projectId, autoRun: true }));
        if (!started.ok) throw new Error(started.error.code);
        const events = await collect(started.value);
        expect(events[events.length - 1]).toMatchObject({ type: 'done', status: 'kept' });
        let expected = new Map(Object.entries(files));
        for (const batch of answers) expected = model(expected, batch);
        expect(await t.files(projectId)).toEqual(Object.fromEntries([...expected].sort(([a], [b]) => (a < b ? -1 : 1))));
        expect(await t.credits()).toBe(5 - answers.length);
      }),
      { numRuns: 150 },
    );
  });

  it('concurrent turns never spend more than the balance, in any interleaving; a turn is paid in full or not at all', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.record({ tasks: fc.integer({ min: 1, max: 3 }), sameProject: fc.boolean() }), { minLength: 1, maxLength: 6 }),
        async (s, spent, messages) => {
          const gate = { on: false };
          const t = await createTurnTestKit({ pause: () => (gate.on ? s.schedule(Promise.resolve(), 'ledger') : Promise.resolve()) });
          for (let i = 0; i < spent; i++) await t.kit.consumePromptCredit.execute({ userId: t.userId, idempotencyKey: `spend-${i}` });
          const targets = await Promise.all(messages.map((m, i) => (m.sameProject ? t.projectId : t.addProject(`c-${i}`))));
          // Each message plans its own number of tasks; every task writes a file.
          const plans = new Map<string, number>(messages.map((m, i) => [`Message ${i}`, m.tasks]));
          const assistant = t.assistant;
          assistant.plan = async function* (input) {
            const n = plans.get(input.prompt) ?? 1;
            // 'edit': a later message edits the app an earlier one kept (a 'build' plan would be declined).
            yield { type: 'done', plan: { kind: 'edit', modules: [], tasks: Array.from({ length: n }, (_, k) => ({ id: `t${k}`, moduleId: 'm', title: `T${k}`, description: '' })) } };
          };
          assistant.runTask = async function* (input) {
            yield { type: 'operation', operation: { type: 'write_file', path: `src/${input.prompt.replace(' ', '-')}-${input.task?.id ?? 'x'}.ts`, content: 'x' } };
            yield { type: 'done', finishReason: 'stop' };
          };
          gate.on = true;
          const endings = await s.waitFor(
            Promise.all(
              messages.map(async (_, i) => {
                const r = await t.runTurn.execute(t.input(`Message ${i}`, { projectId: targets[i], autoRun: true }));
                if (!r.ok) throw new Error(r.error.code);
                const events = await collect(r.value);
                return { message: `Message ${i}`, end: events[events.length - 1] };
              }),
            ),
          );
          gate.on = false;
          const kept = endings.filter((e) => e.end?.type === 'done' && e.end.status === 'kept');
          const paid = kept.reduce((sum, e) => sum + (plans.get(e.message) ?? 0), 0);
          expect(paid).toBeLessThanOrEqual(5 - spent);
          expect(await t.credits()).toBe(5 - spent - paid);
          for (const e of endings) {
            if (e.end?.type === 'done' && e.end.status === 'kept') continue;
            // Not kept: refused before anything, or undone for lack of credits — never half paid.
            expect(e.end?.type === 'error' ? e.end.error.code : e.end?.type === 'done' ? e.end.status : null).toMatch(/^(CREDITS\.LIMIT_REACHED|reverted)$/);
          }
          // A single-task message is refused only when nothing is left to spend at that moment.
          if (messages.every((m) => m.tasks === 1)) expect(kept).toHaveLength(Math.min(messages.length, 5 - spent));
        },
      ),
      { numRuns: 100 },
    );
  });
});
