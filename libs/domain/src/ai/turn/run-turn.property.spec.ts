import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { applyOperations, type FileOperation } from '../file-operation.js';
import { folderPaths } from './turn-context.js';
import { codeError, collect, createTurnTestKit, type TurnTestKit } from './testing/turn-test-kit.js';

// Small pools so operations hit existing files, clash with folders and find (or miss) their search text.
const PATHS = ['src/App.tsx', 'src/a.ts', 'src/lib/b.ts', 'src/lib', 'index.html', 'package.json', 'public/logo.svg', 'notes.md', 'src/new/deep/c.ts'];
const WORDS = ['alpha', 'beta', 'gamma', '{}', '\n'];

const content = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((w) => w.join(' '));
const path = fc.constantFrom(...PATHS);

/** Initial files: any subset of the pool with contents, minus paths that would be both a file and a folder. */
const initialFiles = fc.dictionary(path, content, { maxKeys: 6 }).map((files) => {
  const out: Record<string, string> = {};
  for (const p of Object.keys(files).sort()) {
    const clash = Object.keys(out).some((q) => q.startsWith(`${p}/`) || p.startsWith(`${q}/`));
    if (!clash) out[p] = files[p] ?? '';
  }
  return out;
});

const operation: fc.Arbitrary<FileOperation> = fc.oneof(
  fc.record({ type: fc.constant('write_file' as const), path, content }),
  fc.record({ type: fc.constant('edit_file' as const), path, search: fc.constantFrom(...WORDS), replace: content }),
  fc.record({ type: fc.constant('delete_file' as const), path }),
  fc.record({ type: fc.constant('rename_file' as const), from: path, to: path }),
  fc.record({ type: fc.constant('add_dependency' as const), name: fc.constantFrom('zod', 'left-pad'), version: fc.constant('^1.0.0') }),
);
const batches = fc.array(fc.array(operation, { maxLength: 6 }), { minLength: 1, maxLength: 3 });

let projects = 0;

/** A fresh project of the kit whose files are exactly `files` (the starter removed). */
async function projectWith(t: TurnTestKit, files: Record<string, string>): Promise<string> {
  const id = await t.addProject(`prop-${++projects}`);
  for (const entry of await t.host.getTree(id, '.', [])) await t.host.deleteFile(id, entry.path);
  for (const [p, text] of Object.entries(files)) await t.host.writeFile(id, p, text);
  await t.host.gitCommit(id, 'Start');
  return id;
}

/** What the workspace does to a batch, modelled on the pure rule: leave out what cannot apply. */
function model(files: Map<string, string>, batch: readonly FileOperation[]): Map<string, string> {
  let ops = [...batch];
  for (;;) {
    const result = applyOperations(files, ops);
    if (result.ok) return new Map(result.value.files);
    const failed = result.error.index;
    ops = ops.filter((_, i) => i !== failed);
  }
}

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
            yield { type: 'done', plan: { kind: 'build', modules: [], tasks: Array.from({ length: n }, (_, k) => ({ id: `t${k}`, moduleId: 'm', title: `T${k}`, description: '' })) } };
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
