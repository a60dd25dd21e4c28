import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { LocalSandboxHost } from '@kiln/adapters';
import {
  InProcessTurnLock,
  RunningTurns,
  newProject,
  OwnedProjects,
  RunTurn,
  type TurnDependencies,
  type TurnEvent,
  type TurnRun,
} from '@kiln/domain';
import { OfflineAiAssistant } from '@kiln/offline-assistant';
import { createTestKit, InMemoryTurnRepository, InMemoryTurnUndoJournal, RecordedFilesChanged, SequentialIds, signUp } from '@kiln/domain/testing';
import { mkdtemp, rm } from 'node:fs/promises';

/** The dependency cache every sandbox test shares (libs/adapters/src/sandbox/testing/sandbox-test-dirs.ts). */
const TEST_SANDBOX_CACHE_DIR = path.join(tmpdir(), 'kiln-sandbox-cache-test');

async function collect(run: TurnRun): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
}

/**
 * One real turn end to end: the offline assistant builds an app in a real sandbox (files on
 * disk, git, tsc and a Vite build for find-errors), then edits it.
 */
describe('RunTurn with LocalSandboxHost and the offline assistant (slow)', () => {
  let root: string;
  let host: LocalSandboxHost;
  const kit = createTestKit();
  const projectId = '3f1c2a4e-0b7d-4c1a-9e2f-5a6b7c8d9e01';
  let runTurn: RunTurn;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'kiln-turn-sandboxes-'));
    host = new LocalSandboxHost({ root, cacheDir: TEST_SANDBOX_CACHE_DIR });
    await host.prepareTemplate();
    await signUp(kit, 'ana');
    await kit.projects.insert(newProject({ id: projectId, creatorId: 'ana', name: 'Chores' }, kit.clock.now()));
    const deps: TurnDependencies = {
      turns: new InMemoryTurnRepository(),
      undoJournal: new InMemoryTurnUndoJournal(),
      projects: new OwnedProjects(kit.projects, kit.clock),
      sandbox: host,
      assistant: new OfflineAiAssistant(),
      consumeCredit: kit.consumePromptCredit,
      refundCredit: kit.refundPromptCredit,
      ledger: kit.ledger,
      lock: new InProcessTurnLock(),
      running: new RunningTurns(),
      filesChanged: new RecordedFilesChanged(),
      clock: kit.clock,
      ids: new SequentialIds('turn'),
    };
    runTurn = new RunTurn(deps);
  }, 300_000);

  afterAll(async () => {
    await host?.stopAll();
    await rm(root, { recursive: true, force: true });
  });

  const turn = async (message: string, idempotencyKey: string) => {
    const started = await runTurn.execute({ userId: 'ana', projectId, message, idempotencyKey, autoRun: true });
    if (!started.ok) throw new Error(started.error.code);
    return collect(started.value);
  };

  const sourceText = async () => {
    const tree = await host.getTree(projectId, 'src');
    const files: string[] = [];
    const walk = (entries: typeof tree) => {
      for (const e of entries) {
        if (e.type === 'file') files.push(e.path);
        else walk(e.children ?? []);
      }
    };
    walk(tree);
    return (await Promise.all([...files, 'index.html'].map((p) => host.readFile(projectId, p)))).join('\n');
  };

  it('"Build a todo list app called Chores" is kept, type-checks and builds; "change the title to Errands" is kept as a new commit', async () => {
    await host.ensure(projectId);
    const built = await turn('Build a todo list app called Chores', 'build');
    const done = built[built.length - 1];
    expect(done).toMatchObject({ type: 'done', status: 'kept', commitHash: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const plan = built.find((e) => e.type === 'plan');
    const tasks = plan?.type === 'plan' ? plan.plan.tasks.length : 0;
    expect(tasks).toBeGreaterThan(1);
    // Checked once after the tasks, with nothing to repair.
    expect(built.filter((e) => e.type === 'errors').map((e) => e.type === 'errors' && e.scan.errorCount)).toEqual([0]);
    expect(await host.findErrors(projectId)).toMatchObject({ errorCount: 0 });
    expect(await sourceText()).toContain('Chores');

    const historyBefore = await host.versionHistory(projectId);
    expect(historyBefore[0]).toMatchObject({ hash: done?.type === 'done' ? done.commitHash : '', message: 'Build a todo list app called Chores' });

    const edited = await turn('change the title to Errands', 'edit');
    expect(edited[edited.length - 1]).toMatchObject({ type: 'done', status: 'kept', commitHash: expect.any(String) });
    const history = await host.versionHistory(projectId);
    expect(history).toHaveLength(historyBefore.length + 1);
    expect(history[0]?.message).toBe('change the title to Errands');
    expect(await sourceText()).toContain('Errands');
    expect(await host.findErrors(projectId)).toMatchObject({ errorCount: 0 });
    // One credit per task: the build's tasks and the edit, from the free plan's 5.
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(5 - tasks - 1);
  }, 600_000);
});
