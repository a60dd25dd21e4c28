import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { InMemorySandboxHost } from '../../testing/in-memory-sandbox-host.js';
import { batches, initialFiles, projectWith } from '../../testing/turn-arbitraries.js';
import { codeError, collect, createTurnTestKit } from './testing/turn-test-kit.js';
import { folderPaths } from '../context/turn-context.js';
import { RecoverInterruptedTurns } from './recover-interrupted-turns.use-case.js';

/** A promise that never settles: the process "stops" where it is awaited. */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

describe('RecoverInterruptedTurns properties', () => {
  it('a turn stopped before any change to the sandbox (its tasks or its own revert) is recovered to exactly the project it found, every credit back', async () => {
    await fc.assert(
      fc.asyncProperty(initialFiles, batches, fc.nat({ max: 14 }), fc.boolean(), async (files, answers, stopAt, breaksTheBuild) => {
        // The process stops at the sandbox change number `stopAt` (0-based): it never happens, nor anything after it.
        let changes = 0;
        let stopped: () => void = () => undefined;
        const stuck = new Promise<'stopped'>((resolve) => (stopped = () => resolve('stopped')));
        const step = <T>(change: () => Promise<T>): Promise<T> => {
          changes += 1;
          if (changes > stopAt) {
            stopped();
            return never();
          }
          return change();
        };
        const t = await createTurnTestKit({
          settings: { repairRounds: 0, fullFileAsks: 0 },
          host: (inner) =>
            Object.assign(Object.create(inner) as InMemorySandboxHost, {
              writeFile: (id: string, path: string, content: string) => step(() => inner.writeFile(id, path, content)),
              deleteFile: (id: string, path: string) => step(() => inner.deleteFile(id, path)),
              createDirectory: (id: string, path: string) => step(() => inner.createDirectory(id, path)),
            }),
        });
        const projectId = await projectWith(t, files);
        const foldersBefore = folderPaths(await t.host.getTree(projectId, '.', [])).sort();
        t.scriptErrors([], projectId);
        t.assistant.plans.push({ kind: 'build', modules: [], tasks: answers.map((_, i) => ({ id: `t${i}`, moduleId: 'm', title: `T${i}`, description: '' })) });
        answers.forEach((operations, i) =>
          t.assistant.answers.push(() => {
            // A broken build makes the turn revert: the process may then stop inside the revert.
            if (i === answers.length - 1 && breaksTheBuild) t.scriptErrors([codeError('broken')], projectId);
            return { operations };
          }),
        );
        const started = await t.runTurn.execute(t.input('Change things', { projectId, autoRun: true }));
        if (!started.ok) throw new Error(started.error.code);
        const ending = await Promise.race([stuck, collect(started.value).then(() => 'finished' as const)]);
        const debits = (await t.kit.ledger.entries(t.userId)).filter((e) => e.kind === 'debit').length;

        const report = await new RecoverInterruptedTurns({ ...t.deps, sandbox: t.host }).execute();

        if (!report.ok) throw new Error('recovery never fails as a whole');
        expect(report.value.unrecovered).toEqual([]);
        if (ending === 'finished') {
          // The turn ended on its own before the stop: nothing to recover.
          expect(report.value.recovered).toEqual([]);
          return;
        }
        expect(report.value.recovered.map((r) => [r.turn.id, r.turn.status, r.turn.creditsRefunded])).toEqual([[started.value.turnId, 'failed', debits]]);
        expect(await t.files(projectId)).toEqual(files);
        expect(folderPaths(await t.host.getTree(projectId, '.', [])).sort()).toEqual(foldersBefore);
        expect(await t.credits()).toBe(5);
        expect(await t.journal.entries(started.value.turnId)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
