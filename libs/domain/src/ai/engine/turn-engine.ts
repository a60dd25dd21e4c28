import { type EndingRun, plural, TurnEnding } from './turn-ending.js';
import { drainAssistantStream, UNFINISHED_ANSWER, UNFINISHED_PLAN } from '../assistant-stream.js';
import { turnTaskDebitKey } from '../../credits/ledger-keys.js';
import type { AiPhase } from '../ai-phase.js';
import type { CodeError } from '../../sandbox/code-error.js';
import { type ErrorScan, unavailableErrorScan, unavailableReasonOf } from '../../sandbox/error-scan.js';
import type { ConsumePromptCredit } from '../../credits/consume-prompt-credit.use-case.js';
import type { CreditLedger } from '../../credits/credit-ledger.port.js';
import type { RefundPromptCredit } from '../../credits/refund-prompt-credit.use-case.js';
import type { ProjectOwnership } from '../../projects/project-ownership.js';
import type { ProjectFilesChanged } from '../../sandbox/project-files-changed.port.js';
import type { SandboxCommands } from '../../sandbox/sandbox-commands.port.js';
import type { SandboxDiagnostics } from '../../sandbox/sandbox-diagnostics.port.js';
import type { SandboxFileActions } from '../../sandbox/sandbox-file-actions.port.js';
import type { SandboxFiles } from '../../sandbox/sandbox-files.port.js';
import type { SandboxLifecycle } from '../../sandbox/sandbox-lifecycle.port.js';
import type { SandboxVersions } from '../../sandbox/sandbox-versions.port.js';
import type { Clock } from '../../shared/clock.port.js';
import type { IdGenerator } from '../../shared/ids.port.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { AssistantDatabaseSource } from '../context/assistant-database.port.js';
import type { TurnAttachmentSource } from '../context/turn-attachments.port.js';
import { type AiAssistant, type AiFailure, type AssistantDatabase, type AttachedFile, type AiMessage, type AiPlan, type PlannedTask, type ProjectFile, type TaskInput } from '../ai-assistant.port.js';
import type { FileOperation } from '../operations/file-operation.js';
import { EventChannel } from './event-channel.js';
import type { ProjectTurnLock } from './project-turn-lock.js';
import { declinedReplaceApp, hasApp, replaceAppDecision } from './replace-app-rule.js';
import { type RunningTurns, StopSignal } from './running-turns.js';
import { type Turn, type TurnPlan, planCost } from './turn.entity.js';
import { type ContextSelector, DEFAULT_CONTEXT_LIMIT_CHARS, filesBudget, fitHistory, fitTree, HISTORY_SHARE, selectContext, TREE_SHARE } from '../context/turn-context.js';
import type { TurnEvent } from './turn-event.js';
import type { TurnRepository } from './turn-repository.port.js';
import type { TurnUndoJournal } from './turn-undo-journal.port.js';
import type { TurnMigrations } from './turn-migrations.port.js';
import { isMigrationPath } from '../../sandbox/migration-paths.js';
import { TurnWorkspace } from './turn-workspace.js';


export interface TurnSettings {
  /** Free repair rounds when a turn leaves more errors than it found (default 2). */
  readonly repairRounds: number;
  /** Most characters sent with each request: the message, listing, history and files (default 200 000). */
  readonly contextLimitChars: number;
  /** Chooses the context files (default selectContext; the seam for a VectorIndex). */
  readonly selectContext: ContextSelector;
  /** Earlier turns of the project given to the assistant as chat history (default 10). */
  readonly historyTurns: number;
  /** How often one task may be asked again for a whole file (needFullFile) (default 2). */
  readonly fullFileAsks: number;
}

export const DEFAULT_REPAIR_ROUNDS = 2;

export const DEFAULT_TURN_SETTINGS: TurnSettings = Object.freeze({
  repairRounds: DEFAULT_REPAIR_ROUNDS,
  contextLimitChars: DEFAULT_CONTEXT_LIMIT_CHARS,
  selectContext,
  historyTurns: 10,
  fullFileAsks: 2,
});

/**
 * What a turn does in its project's sandbox: opens it, edits files, runs the commands the
 * assistant asks for, checks for errors and saves the result as a version.
 */
export type TurnSandbox = Pick<SandboxLifecycle, 'ensure'> & SandboxFiles & Pick<SandboxFileActions, 'writeFileBytes'> & SandboxCommands & SandboxDiagnostics & SandboxVersions;

/** Everything the turn use cases need (one object, shared by RunTurn, AcceptTurnPlan, …). */
export interface TurnDependencies {
  readonly turns: TurnRepository;
  /** Where a running turn records how to undo its changes, for a restart after a crash. */
  readonly undoJournal: TurnUndoJournal;
  readonly projects: ProjectOwnership;
  readonly sandbox: TurnSandbox;
  readonly assistant: AiAssistant;
  readonly consumeCredit: Pick<ConsumePromptCredit, 'execute'>;
  readonly refundCredit: Pick<RefundPromptCredit, 'execute'>;
  /** Read for the credits left after a refund. */
  readonly ledger: Pick<CreditLedger, 'summary'>;
  readonly lock: ProjectTurnLock;
  /** The turns this process runs, so that a Stop reaches them (StopTurn). */
  readonly running: RunningTurns;
  /** The builder and the search index hear of every change a turn keeps or puts back. */
  readonly filesChanged: ProjectFilesChanged;
  /** Applies the project's migrations when a turn changed them (projects with a database only). */
  readonly migrations?: TurnMigrations;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings?: Partial<TurnSettings>;
  /** The project's database for the assistant (optional: without it, no database is told). */
  readonly database?: AssistantDatabaseSource;
  /** Files attached to messages (optional: without it a message carries none). */
  readonly attachments?: TurnAttachmentSource;
}

/** A started (or replayed) turn: its events as they happen, and its end. */
export interface TurnRun {
  readonly turnId: string;
  readonly events: AsyncIterable<TurnEvent>;
  /** The turn as stored when it ended or began to wait for approval; null when it was forgotten (refused first debit). */
  readonly finished: Promise<Turn | null>;
}

export const OUT_OF_CREDITS_MESSAGE =
  'You ran out of credits before the plan was finished, so its changes were undone and its credits refunded.';

function titleOf(message: string): string {
  const line = message.trim().split('\n')[0] ?? '';
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}


function pathOf(operation: FileOperation): string | undefined {
  switch (operation.type) {
    case 'write_file':
    case 'edit_file':
    case 'delete_file':
      return operation.path;
    case 'rename_file':
      return operation.to;
    case 'add_dependency':
      return 'package.json';
    case 'run_command':
      return undefined;
  }
}

/** Starts a stored turn (status queued) in the background and returns its event stream. */
export function startTurn(deps: TurnDependencies, turn: Turn, mode: 'message' | 'accept'): TurnRun {
  const out = new EventChannel<TurnEvent>();
  const stop = new StopSignal();
  const finished = new TurnExecution(deps, turn, mode, out, stop).run();
  deps.running.track(turn.id, stop, finished);
  return { turnId: turn.id, events: out, finished };
}

/** A finished or waiting turn told again (a retried request with the same idempotency key). */
export function replayTurn(turn: Turn): TurnRun {
  const out = new EventChannel<TurnEvent>();
  out.push({ type: 'turn', turnId: turn.id, message: turn.message });
  if (turn.status === 'awaiting_approval' && turn.plan !== null) {
    out.push({ type: 'plan', plan: turn.plan, cost: planCost(turn.plan), replacesApp: turn.plan.replacesApp === true });
    out.push({ type: 'awaiting_approval', turnId: turn.id, cost: planCost(turn.plan) });
  } else if (turn.status === 'kept' || turn.status === 'reverted') {
    out.push({ type: 'done', status: turn.status, message: turn.outcome ?? '', ...(turn.commitHash ? { commitHash: turn.commitHash } : {}) });
  } else {
    out.push({ type: 'done', status: 'failed', message: turn.outcome ?? (turn.status === 'cancelled' ? 'This plan was cancelled.' : 'This message failed.') });
  }
  out.close();
  return { turnId: turn.id, events: out, finished: Promise.resolve(turn) };
}

/** One run of a turn: the algorithm of docs/ai-api.md (plan, tasks, check, repair, keep or revert). */
class TurnExecution implements EndingRun {
  turn: Turn;
  private readonly settings: TurnSettings;
  /** Debit keys charged by this run, in order. */
  readonly charged: string[] = [];
  readonly refundedKeys = new Set<string>();
  /** Debit keys of the tasks that finished (a Stop refunds the others). */
  readonly finishedKeys = new Set<string>();
  workspace: TurnWorkspace | null = null;
  private history: AiMessage[] = [];
  /** The project's database as the assistant is told it, read once when the turn begins. */
  private database: AssistantDatabase | null = null;
  /** The files attached to the message, placed in the sandbox when the turn begins. */
  private attached: readonly AttachedFile[] = [];
  /** The status last stored (a failed save leaves the turn as stored before). */
  storedStatus: Turn['status'];
  /** How the turn ends (turn-ending.ts). */
  private readonly ending: TurnEnding;

  constructor(
    readonly deps: TurnDependencies,
    turn: Turn,
    readonly mode: 'message' | 'accept',
    private readonly out: EventChannel<TurnEvent>,
    readonly stop: StopSignal,
  ) {
    this.turn = turn;
    this.storedStatus = turn.status;
    this.settings = { ...DEFAULT_TURN_SETTINGS, ...deps.settings };
    this.ending = new TurnEnding(this);
  }

  async run(): Promise<Turn | null> {
    this.emit({ type: 'turn', turnId: this.turn.id, message: this.turn.message });
    let began = false;
    let stoppedWhileQueued: Promise<Turn> | null = null;
    const whileQueued = new Promise<Turn>((resolve, reject) => {
      // A Stop before the project's earlier turn let this one begin ends it at once, without the lock.
      const onStop = () => {
        if (began) return;
        stoppedWhileQueued = this.ending.stopped();
        stoppedWhileQueued.then(resolve, reject);
      };
      this.stop.addEventListener('abort', onStop);
    });
    try {
      const locked = this.deps.lock.run(this.turn.projectId, async () => {
        if (stoppedWhileQueued !== null) return stoppedWhileQueued;
        began = true;
        let ended: Turn | null;
        try {
          ended = await this.body();
        } catch (cause) {
          ended = await this.ending.crash(cause);
        }
        await this.ending.forgetUndo();
        return ended;
      });
      return await Promise.race([locked, whileQueued]);
    } finally {
      this.out.close();
    }
  }

  // ── The algorithm ────────────────────────────────────────────────────────────────────────

  private async body(): Promise<Turn | null> {
    const { sandbox } = this.deps;
    const { projectId } = this.turn;
    if (this.stop.aborted) return this.ending.stopped();
    await this.update({ status: 'running' });
    this.phase('fetching');
    await sandbox.ensure(projectId);
    await this.placeAttachments();
    const workspace = await TurnWorkspace.open(sandbox, projectId, { turnId: this.turn.id, journal: this.deps.undoJournal });
    this.workspace = workspace;
    const earlier = await this.earlierTurns();
    this.history = this.historyOf(earlier);
    this.database = await this.readDatabase();
    const projectHasApp = hasApp(earlier);
    // The baseline: errors before the turn changes anything (runs while the plan is made).
    const baseline = this.scan();

    let plan: TurnPlan;
    if (this.mode === 'message') {
      const files = await this.context();
      this.phase('thinking');
      const planned = await this.plan(files);
      if (this.stop.aborted) return this.ending.stopped();
      if (!planned.ok) return this.ending.failBeforeStart(planned.error);
      // Issue #14: a new app on a project that has one runs only when asked for and confirmed.
      const decision = replaceAppDecision(planned.value, projectHasApp, this.turn.message);
      if (decision === 'decline') return this.ending.failBeforeStart(declinedReplaceApp());
      plan = decision === 'confirm' ? { ...planned.value, replacesApp: true } : planned.value;
      await this.update({ plan });
      const cost = planCost(plan);
      this.emit({ type: 'plan', plan, cost, replacesApp: decision === 'confirm' });
      if (decision === 'confirm' || (plan.tasks.length > 1 && !this.turn.autoRun)) {
        await this.update({ status: 'awaiting_approval' });
        this.phase('idle');
        this.emit({ type: 'awaiting_approval', turnId: this.turn.id, cost });
        return this.turn;
      }
    } else {
      plan = this.turn.plan ?? { kind: 'edit', modules: [], tasks: [] };
    }

    // The baseline must see the files before the turn changes any (a scan reads them for seconds).
    const before = await baseline;
    this.phase('building');
    const steps: readonly (PlannedTask | undefined)[] = plan.tasks.length === 0 ? [undefined] : plan.tasks;
    for (const [index, task] of steps.entries()) {
      const taskId = task?.id ?? 'task-1';
      const title = task?.title ?? titleOf(this.turn.message);
      const key = turnTaskDebitKey(this.turn.id, index);
      if (this.stop.aborted) return this.ending.stopped();
      // One credit per task, always before the provider is asked.
      const debit = await this.deps.consumeCredit.execute({ userId: this.turn.userId, idempotencyKey: key });
      if (!debit.ok) {
        if (this.charged.length === 0) return this.ending.refusedAtStart(debit.error);
        this.emit({ type: 'task', taskId, index, title, state: 'failed' });
        return this.ending.undo(OUT_OF_CREDITS_MESSAGE);
      }
      this.charged.push(key);
      this.emit({ type: 'credits', charged: this.charged.length, refunded: this.refundedKeys.size, creditsRemaining: debit.value.creditsRemaining });
      this.emit({ type: 'task', taskId, index, title, state: 'running' });
      const outcome = await this.step({ taskId, task, plan: plan.tasks.length > 0 ? plan : undefined });
      if (!outcome.ok && this.stop.aborted) {
        // Stopped in the middle of this task: it did not finish, so its credit is refunded.
        this.emit({ type: 'task', taskId, index, title, state: 'failed' });
        return this.ending.stopped();
      }
      if (!outcome.ok) {
        this.emit({ type: 'task', taskId, index, title, state: 'failed' });
        return this.ending.failAfterStart(outcome.error);
      }
      this.finishedKeys.add(key);
      this.emit({ type: 'task', taskId, index, title, state: 'done' });
    }

    if (this.stop.aborted) return this.ending.stopped();
    if (!workspace.changed) return this.ending.keep();
    let round = 0;
    let scan = await this.check(round, before);
    while (scan.errorCount > before.errorCount && round < this.settings.repairRounds) {
      round += 1;
      // Repair rounds are free: no debit.
      const repaired = await this.step({ taskId: `repair-${round}`, plan: plan.tasks.length > 0 ? plan : undefined, previousErrors: scan.errors });
      if (this.stop.aborted) return this.ending.stopped();
      if (!repaired.ok) break;
      scan = await this.check(round, before);
    }
    if (this.stop.aborted) return this.ending.stopped();
    if (scan.errorCount > before.errorCount) return this.ending.undo(this.brokeTheBuild(scan, before, round));
    return this.ending.keep();
  }

  /** Runs one task (or a repair round): asks the assistant, applies its answer, runs its commands. */
  private async step(input: {
    readonly taskId: string;
    readonly task?: PlannedTask;
    readonly plan?: AiPlan;
    readonly previousErrors?: readonly CodeError[];
  }): Promise<Result<void, AiFailure>> {
    const workspace = this.open();
    let needFullFile: string | undefined;
    for (let ask = 0; ; ask += 1) {
      const files = await this.context(needFullFile);
      const answer = await this.ask(
        {
          prompt: this.turn.message,
          ...(input.task ? { task: input.task } : {}),
          ...(input.plan ? { plan: input.plan } : {}),
          tree: this.listing(),
          files,
          history: this.history,
          ...(this.database ? { database: this.database } : {}),
          ...(this.attached.length > 0 ? { attachments: this.attached } : {}),
          ...(input.previousErrors ? { previousErrors: input.previousErrors } : {}),
          ...(needFullFile !== undefined ? { needFullFile } : {}),
          signal: this.stop,
        },
        input.taskId,
      );
      if (!answer.ok) return answer;
      // A Stop while the model answered: its operations are not applied.
      if (this.stop.aborted) return err({ code: 'AI.ABORTED', message: 'Stopped.' });
      const applied = await workspace.apply(answer.value, { askForFullFile: ask < this.settings.fullFileAsks });
      if (applied.kind === 'needs_full_file') {
        // Never guess an edit: ask again for the whole file.
        needFullFile = applied.path;
        continue;
      }
      for (const operation of applied.operations) {
        const path = pathOf(operation);
        this.emit({ type: 'operation', taskId: input.taskId, operation: operation.type, ...(path !== undefined ? { path } : {}) });
      }
      for (const command of applied.commands) await workspace.runCommand(command);
      return ok(undefined);
    }
  }

  /** One answer of the assistant: its text streamed, its operations collected. */
  private async ask(input: TaskInput, taskId: string): Promise<Result<FileOperation[], AiFailure>> {
    const operations: FileOperation[] = [];
    const answered = await drainAssistantStream(this.deps.assistant.runTask(input), UNFINISHED_ANSWER, (event) => {
      if (event.type === 'text') this.say(taskId, event.text);
      else if (event.type === 'operation') operations.push(event.operation);
    });
    return answered.ok ? ok(operations) : answered;
  }

  /**
   * The message's attached files, written into the sandbox at public/attachments/ (before the
   * turn's workspace opens: they stay when the turn is undone, like an upload).
   */
  private async placeAttachments(): Promise<void> {
    if (!this.deps.attachments) return;
    this.attached = await this.deps.attachments.filesOf(this.turn.projectId, this.turn.message);
    for (const file of this.attached) await this.deps.sandbox.writeFileBytes(this.turn.projectId, `public${file.path}`, file.bytes);
  }

  /** The project's database, or null: none, no source, or a source that failed (the turn goes on without it). */
  private async readDatabase(): Promise<AssistantDatabase | null> {
    if (!this.deps.database) return null;
    try {
      return await this.deps.database.forProject(this.turn.projectId);
    } catch {
      return null;
    }
  }

  private async plan(files: readonly ProjectFile[]): Promise<Result<AiPlan, AiFailure>> {
    const planned = await drainAssistantStream(
      this.deps.assistant.plan({ prompt: this.turn.message, tree: this.listing(), files, history: this.history, ...(this.database ? { database: this.database } : {}), ...(this.attached.length > 0 ? { attachments: this.attached } : {}), signal: this.stop }),
      UNFINISHED_PLAN,
    );
    return planned.ok ? ok(planned.value.plan) : planned;
  }

  private async check(round: number, before: ErrorScan): Promise<ErrorScan> {
    this.emit({ type: 'checking', round });
    let scan = await this.scan();
    // Migrations run only once the code would be kept: a turn undone for its code never changed the schema.
    if (scan.errorCount <= before.errorCount) scan = await this.migrate(scan);
    this.emit({ type: 'errors', round, scan });
    return scan;
  }

  /** Applies the migrations the turn changed; their errors join the scan's (a failed run applied nothing). */
  private async migrate(scan: ErrorScan): Promise<ErrorScan> {
    if (!this.deps.migrations) return scan;
    if (!(await this.open().changedPaths()).some(isMigrationPath)) return scan;
    const errors = await this.deps.migrations.apply(this.turn.projectId);
    if (errors.length === 0) return scan;
    return { ...scan, errors: [...scan.errors, ...errors], errorCount: scan.errorCount + errors.length };
  }

  /**
   * find-errors; SPEC §8: a scan that fails counts as zero errors, but is marked as not checked
   * (its reason goes out with the turn's errors event), never passed off as "no errors".
   */
  private async scan(): Promise<ErrorScan> {
    try {
      return await this.deps.sandbox.findErrors(this.turn.projectId);
    } catch (error) {
      return unavailableErrorScan(unavailableReasonOf(error));
    }
  }

  private context(required?: string): Promise<readonly ProjectFile[]> {
    const workspace = this.open();
    return this.settings.selectContext({
      projectId: this.turn.projectId,
      prompt: this.turn.message,
      tree: workspace.tree(),
      read: (path) => workspace.read(path),
      required: required === undefined ? [] : [required],
      // Whatever the listing and the history leave: the whole request stays within the limit.
      limitChars: filesBudget(this.settings.contextLimitChars, { prompt: this.turn.message, tree: this.listing(), history: this.history }),
    });
  }

  /** The file listing the assistant sees, within its share of the context budget. */
  private listing(): string[] {
    return fitTree(this.open().tree(), Math.floor(this.settings.contextLimitChars * TREE_SHARE));
  }

  private async earlierTurns(): Promise<readonly Turn[]> {
    return (await this.deps.turns.listByProject(this.turn.projectId)).filter(
      (t) => t.id !== this.turn.id && (t.status === 'kept' || t.status === 'reverted' || t.status === 'failed'),
    );
  }

  private historyOf(earlier: readonly Turn[]): AiMessage[] {
    const history = earlier.slice(-this.settings.historyTurns).flatMap((t): AiMessage[] => {
      const reply = [t.reply.trim(), t.outcome ?? ''].filter((s) => s !== '').join('\n\n');
      return reply === '' ? [{ role: 'user', content: t.message }] : [{ role: 'user', content: t.message }, { role: 'assistant', content: reply }];
    });
    return fitHistory(history, Math.floor(this.settings.contextLimitChars * HISTORY_SHARE));
  }

  // ── Endings ──────────────────────────────────────────────────────────────────────────────

  private brokeTheBuild(scan: ErrorScan, before: ErrorScan, rounds: number): string {
    const first = scan.errors.find((e) => e.severity === 'error');
    const where = first ? ` First error: ${first.file}:${first.line} ${first.message}` : '';
    const repairs = rounds === 0 ? 'it could not be repaired' : `${plural(rounds, 'repair round')} did not fix it`;
    const earlier = before.unavailableReason === undefined ? `${before.errorCount} before` : 'the check before the changes could not run';
    return `The changes broke the app (${plural(scan.errorCount, 'error')}, ${earlier}) and ${repairs}, so they were undone and the credits refunded.${where}`;
  }

  // ── Small helpers ────────────────────────────────────────────────────────────────────────

  open(): TurnWorkspace {
    if (this.workspace === null) throw new Error('The turn has no workspace yet');
    return this.workspace;
  }

  async update(patch: Partial<Omit<Turn, 'id' | 'userId' | 'projectId' | 'createdAt'>>): Promise<Turn> {
    this.turn = {
      ...this.turn,
      ...patch,
      creditsCharged: this.charged.length,
      creditsRefunded: this.refundedKeys.size,
      updatedAt: this.deps.clock.now(),
    };
    await this.deps.turns.save(this.turn);
    this.storedStatus = this.turn.status;
    return this.turn;
  }

  emit(event: TurnEvent): void {
    // After a revert anything may have changed (no paths): the builder reloads everything.
    if (event.type === 'files_changed') this.deps.filesChanged.filesChanged(this.turn.projectId, { paths: event.paths, reason: 'write' });
    this.out.push(event);
  }

  phase(phase: AiPhase): void {
    this.emit({ type: 'phase', phase });
  }

  /** The task whose words came last: another task's words start a new paragraph. */
  private lastSaid: string | null = null;

  /**
   * Adds the assistant's words to the reply. A new task's words start a new paragraph, as the
   * builder shows them live, so a reloaded reply keeps its paragraph breaks.
   */
  private say(taskId: string, text: string): void {
    if (text === '') return;
    const reply = this.turn.reply;
    const breakBefore = reply !== '' && taskId !== this.lastSaid && !reply.endsWith('\n') ? '\n\n' : '';
    this.lastSaid = taskId;
    this.turn = { ...this.turn, reply: reply + breakBefore + text };
    this.emit({ type: 'text', taskId, text });
  }
}
