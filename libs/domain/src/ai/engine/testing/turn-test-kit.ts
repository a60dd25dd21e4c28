import { newProject } from '../../../projects/project.entity.js';
import type { AssistantDatabaseSource } from '../../context/assistant-database.port.js';
import { OwnedProjects } from '../../../projects/owned-projects.js';
import type { CodeError } from '../../../sandbox/code-error.js';
import { createTestKit, signUp, type TestKit } from '../../../testing/test-kit.js';
import { InMemorySandboxHost } from '../../../testing/in-memory-sandbox-host.js';
import type { Pause } from '../../../testing/in-memory-credit-ledger.js';
import { SequentialIds } from '../../../testing/sequential-ids.js';
import { filePaths } from '../../context/turn-context.js';
import { InMemoryTurnRepository } from '../../../testing/in-memory-turn-repository.js';
import { InMemoryTurnUndoJournal } from '../../../testing/in-memory-turn-undo-journal.js';
import { RecordedFilesChanged } from '../../../testing/recorded-files-changed.js';
import type { TurnUndoJournal } from '../turn-undo-journal.port.js';
import { InProcessTurnLock } from '../project-turn-lock.js';
import type { TurnDependencies, TurnRun, TurnSettings } from '../turn-engine.js';
import type { TurnEvent } from '../turn-event.js';
import { RunTurn, type RunTurnInput } from '../run-turn.use-case.js';
import { AcceptTurnPlan } from '../accept-turn-plan.use-case.js';
import { CancelTurnPlan } from '../cancel-turn-plan.use-case.js';
import { ListTurns } from '../list-turns.use-case.js';
import { RunningTurns } from '../running-turns.js';
import { StopTurn } from '../stop-turn.use-case.js';
import { RecoverInterruptedTurns } from '../recover-interrupted-turns.use-case.js';
import { ScriptedAiAssistant } from './scripted-ai-assistant.js';
import type { TurnMigrations } from '../turn-migrations.port.js';
import type { AiAssistant } from '../../ai-assistant.port.js';
import type { SandboxHost } from '../../../sandbox/sandbox-host.port.js';

/** The turn use cases over in-memory adapters, a signed-up user and a project with a sandbox. */
export interface TurnTestKit {
  readonly kit: TestKit;
  readonly host: InMemorySandboxHost;
  readonly assistant: ScriptedAiAssistant;
  readonly turns: InMemoryTurnRepository;
  readonly journal: InMemoryTurnUndoJournal;
  readonly lock: InProcessTurnLock;
  /** What the builder and the index were told of changed files. */
  readonly filesChanged: RecordedFilesChanged;
  readonly deps: TurnDependencies;
  readonly runTurn: RunTurn;
  readonly acceptTurnPlan: AcceptTurnPlan;
  readonly cancelTurnPlan: CancelTurnPlan;
  readonly listTurns: ListTurns;
  readonly stopTurn: StopTurn;
  readonly running: RunningTurns;
  readonly recoverInterruptedTurns: RecoverInterruptedTurns;
  readonly userId: string;
  readonly projectId: string;
  /** Another project of the same user, with its sandbox. */
  addProject(id: string): Promise<string>;
  /** RunTurn input with defaults (a fresh idempotency key each call). */
  input(message: string, extra?: Partial<RunTurnInput>): RunTurnInput;
  credits(): Promise<number>;
  /** The project's files as a plain object (every file, the tree ignore list not applied). */
  files(projectId?: string): Promise<Record<string, string>>;
  scriptErrors(errors: readonly CodeError[], projectId?: string): void;
}

export async function createTurnTestKit(
  options: {
    settings?: Partial<TurnSettings>;
    assistant?: AiAssistant;
    host?: (inner: InMemorySandboxHost) => SandboxHost;
    journal?: (inner: InMemoryTurnUndoJournal) => TurnUndoJournal;
    pause?: Pause;
    database?: AssistantDatabaseSource;
    /** The turns' migrations port (absent: a project without a database). */
    migrations?: (kit: TestKit, host: InMemorySandboxHost) => TurnMigrations;
  } = {},
): Promise<TurnTestKit> {
  const kit = createTestKit(options.pause ? { pause: options.pause } : {});
  const host = new InMemorySandboxHost(kit.clock);
  const assistant = new ScriptedAiAssistant();
  const turns = new InMemoryTurnRepository();
  const journal = new InMemoryTurnUndoJournal();
  const lock = new InProcessTurnLock();
  const filesChanged = new RecordedFilesChanged();
  const running = new RunningTurns();
  const deps: TurnDependencies = {
    turns,
    undoJournal: options.journal ? options.journal(journal) : journal,
    projects: new OwnedProjects(kit.projects, kit.clock),
    sandbox: options.host ? options.host(host) : host,
    assistant: options.assistant ?? assistant,
    consumeCredit: kit.consumePromptCredit,
    refundCredit: kit.refundPromptCredit,
    ledger: kit.ledger,
    lock,
    running,
    filesChanged,
    clock: kit.clock,
    ids: new SequentialIds('turn'),
    ...(options.settings ? { settings: options.settings } : {}),
    ...(options.database ? { database: options.database } : {}),
    ...(options.migrations ? { migrations: options.migrations(kit, host) } : {}),
  };
  const userId = 'ana';
  await signUp(kit, userId);
  let keys = 0;
  const addProject = async (id: string) => {
    await kit.projects.insert(newProject({ id, creatorId: userId, name: `Project ${id}` }, kit.clock.now()));
    await host.ensure(id);
    return id;
  };
  const projectId = await addProject('project-1');
  return {
    kit,
    host,
    assistant,
    turns,
    journal,
    lock,
    filesChanged,
    deps,
    runTurn: new RunTurn(deps),
    acceptTurnPlan: new AcceptTurnPlan(deps),
    cancelTurnPlan: new CancelTurnPlan(deps),
    listTurns: new ListTurns(deps),
    stopTurn: new StopTurn(deps),
    running,
    recoverInterruptedTurns: new RecoverInterruptedTurns(deps),
    userId,
    projectId,
    addProject,
    input: (message, extra = {}) => ({ userId, projectId, message, idempotencyKey: `key-${++keys}`, autoRun: false, ...extra }),
    credits: async () => {
      const { balances } = await kit.ledger.summary(userId);
      return balances.monthly + balances.referral + balances.addon;
    },
    files: async (id = projectId) => {
      const tree = await host.getTree(id, '.', []);
      const out: Record<string, string> = {};
      for (const path of filePaths(tree).sort()) out[path] = await host.readFile(id, path);
      return out;
    },
    scriptErrors: (errors, id = projectId) => host.scriptErrors(id, errors),
  };
}

/** Every event of a run, in order. */
export async function collect(run: TurnRun): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
}

export const codeError = (message: string, file = 'src/App.tsx', line = 1): CodeError => ({ message, file, line, column: 1, severity: 'error' });
