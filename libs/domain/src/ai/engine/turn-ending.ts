import type { CreditError } from '../../credits/credit.errors.js';
import { totalBalance } from '../../credits/credit-account.js';
import type { DomainError } from '../../shared/domain-error.js';
import type { AiFailure } from '../ai-assistant.port.js';
import type { AiPhase } from '../ai-phase.js';
import type { TurnDependencies } from './turn-engine.js';
import type { Turn } from './turn.entity.js';
import type { TurnEvent } from './turn-event.js';
import type { TurnWorkspace } from './turn-workspace.js';

/** The turn could not finish: something other than the provider failed (the sandbox, a bug). */
export type TurnFailed = DomainError<'TURNS.FAILED'>;
const turnFailed = (): TurnFailed => ({
  code: 'TURNS.FAILED',
  message: 'Something went wrong while working on this message. Nothing was kept and any credits were refunded.',
});

/** Longest commit message (the sandbox API's own limit). */
export const MAX_COMMIT_MESSAGE_LENGTH = 2000;
/** The outcome of a turn whose plan the assistant declined (AI.DECLINED). */
export const DECLINED_OUTCOME = 'Nothing was changed, and no credit was used.';

export function commitMessageFor(message: string): string {
  const text = message.trim();
  return text.length <= MAX_COMMIT_MESSAGE_LENGTH ? text : `${text.slice(0, MAX_COMMIT_MESSAGE_LENGTH - 1)}…`;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How a stopped turn's outcome begins (the builder tells a stop from other reverts by it). */
export const STOPPED_OUTCOME_PREFIX = 'Stopped.';
/** The outcome of a turn the person stopped (reverted, unfinished tasks refunded). */
export const stoppedOutcome = (refunded: number): string =>
  `${STOPPED_OUTCOME_PREFIX} Your app is as it was before this message; ${plural(refunded, 'credit')} refunded.`;
export const isStoppedOutcome = (outcome: string | null): boolean => outcome !== null && outcome.startsWith(STOPPED_OUTCOME_PREFIX);

/** What ending a turn needs of the run it ends (the engine's TurnExecution). */
export interface EndingRun {
  readonly deps: TurnDependencies;
  readonly mode: 'message' | 'accept';
  readonly turn: Turn;
  readonly workspace: TurnWorkspace | null;
  /** Debit keys charged by this run, in order, and those refunded. */
  readonly charged: readonly string[];
  readonly refundedKeys: Set<string>;
  /** Debit keys of the tasks that finished. */
  readonly finishedKeys: ReadonlySet<string>;
  /** The status last stored. */
  readonly storedStatus: Turn['status'];
  open(): TurnWorkspace;
  update(patch: Partial<Omit<Turn, 'id' | 'userId' | 'projectId' | 'createdAt'>>): Promise<Turn>;
  emit(event: TurnEvent): void;
  phase(phase: AiPhase): void;
}

/**
 * How a turn ends, every way it can (docs/ai-api.md): **kept** (one commit, the project's edited
 * time), **reverted** (every touched file restored, every credit refunded: out of credits, or the
 * changes broke the app), **failed** after starting (the provider: restored and refunded), before
 * starting (planning failed or was declined: nothing charged), refused at its first debit, or
 * crashed (anything else: undo what can be undone). Then the undo journal is forgotten.
 */
export class TurnEnding {
  constructor(private readonly run: EndingRun) {}

  async keep(): Promise<Turn> {
    const workspace = this.run.open();
    const paths = await workspace.changedPaths();
    let commitHash: string | undefined;
    if (workspace.changed) {
      try {
        const commit = await this.run.deps.sandbox.saveVersion(this.run.turn.projectId, commitMessageFor(this.run.turn.message));
        if (commit.success && commit.hash !== undefined) commitHash = commit.hash;
      } catch {
        // SPEC §8: a failed commit is not the turn's failure; the changes stay, without a version.
      }
    }
    if (paths.length > 0) {
      try {
        await this.run.deps.projects.touch(this.run.turn.userId, this.run.turn.projectId);
      } catch {
        // Only the project's "edited" time: never the turn's failure.
      }
    }
    const message = paths.length === 0 ? 'Nothing was changed.' : `Changed ${plural(paths.length, 'file')}.`;
    await this.run.update({ status: 'kept', outcome: message, commitHash: commitHash ?? null });
    if (paths.length > 0) this.run.emit({ type: 'files_changed', paths });
    this.run.phase('idle');
    this.run.emit({ type: 'done', status: 'kept', message, ...(commitHash !== undefined ? { commitHash } : {}) });
    return this.run.turn;
  }

  /** Undo every change, refund every credit, done 'reverted' with the reason. */
  async undo(reason: string): Promise<Turn> {
    const touched = await this.revert();
    await this.refundAll();
    await this.run.update({ status: 'reverted', outcome: reason });
    if (touched) this.run.emit({ type: 'files_changed', paths: [] });
    this.run.phase('idle');
    this.run.emit({ type: 'done', status: 'reverted', message: reason });
    return this.run.turn;
  }

  /**
   * The person pressed Stop: every change undone, the credits of the tasks that had not finished
   * refunded (the task under way included; tasks done stay charged, SPEC: "refunds the tasks it
   * had not finished"), done 'reverted' with STOPPED_OUTCOME.
   */
  async stopped(): Promise<Turn> {
    const touched = await this.revert();
    const unfinished = this.run.charged.filter((key) => !this.run.finishedKeys.has(key));
    if (unfinished.length > 0) await this.refund(unfinished);
    const message = stoppedOutcome(this.run.refundedKeys.size);
    await this.run.update({ status: 'reverted', outcome: message });
    if (touched) this.run.emit({ type: 'files_changed', paths: [] });
    this.run.phase('idle');
    this.run.emit({ type: 'done', status: 'reverted', message });
    return this.run.turn;
  }

  /** The provider failed during the tasks: undo, refund, error. */
  async failAfterStart(error: DomainError): Promise<Turn> {
    const touched = await this.revert();
    await this.refundAll();
    await this.run.update({ status: 'failed', outcome: error.message, failureCode: error.code });
    if (touched) this.run.emit({ type: 'files_changed', paths: [] });
    this.run.phase('idle');
    this.run.emit({ type: 'error', error, started: true });
    return this.run.turn;
  }

  /**
   * Planning failed: nothing was charged or changed. A plan the assistant declined keeps its
   * words as the reply (they say what it can do instead), the outcome says nothing was used.
   */
  async failBeforeStart(error: AiFailure): Promise<Turn> {
    if (error.code === 'AI.DECLINED') await this.run.update({ status: 'failed', reply: error.message, outcome: DECLINED_OUTCOME, failureCode: error.code });
    else await this.run.update({ status: 'failed', outcome: error.message, failureCode: error.code });
    this.run.phase('idle');
    this.run.emit({ type: 'error', error, started: false });
    return this.run.turn;
  }

  /** The first debit was refused: the turn never started (a new message is forgotten, a plan waits again). */
  async refusedAtStart(error: CreditError): Promise<Turn | null> {
    let result: Turn | null = null;
    if (this.run.mode === 'message') await this.run.deps.turns.remove(this.run.turn.id);
    else result = await this.run.update({ status: 'awaiting_approval' });
    this.run.phase('idle');
    this.run.emit({ type: 'error', error, started: false });
    return result;
  }

  /** Something other than the provider failed (the sandbox host, a bug): undo what can be undone. */
  async crash(cause: unknown): Promise<Turn | null> {
    let touched = false;
    try {
      touched = await this.revert();
    } catch {
      touched = true;
    }
    try {
      await this.refundAll();
    } catch {
      // the ledger is down too: the debits stay, and so does the failure
    }
    const error = turnFailed();
    try {
      await this.run.update({ status: 'failed', outcome: error.message, failureCode: error.code });
    } catch {
      // nowhere to record it
    }
    if (touched) this.run.emit({ type: 'files_changed', paths: [] });
    this.run.phase('idle');
    this.run.emit({ type: 'error', error, started: touched || this.run.charged.length > 0, cause });
    return this.run.turn;
  }

  /**
   * Clears the turn's undo journal once its end is stored. A turn whose end could not be stored
   * keeps it: the next start finds the turn still running and undoes it from the journal.
   */
  async forgetUndo(): Promise<void> {
    if (this.run.workspace === null || !this.run.workspace.hasJournal) return;
    if (this.run.storedStatus === 'queued' || this.run.storedStatus === 'running') return;
    try {
      await this.run.deps.undoJournal.clear(this.run.turn.id);
    } catch {
      // A journal left behind is never read again (only queued and running turns are recovered).
    }
  }

  /** Restores every touched file; true when the turn had touched anything. */
  private async revert(): Promise<boolean> {
    const workspace = this.run.workspace;
    if (workspace === null || !workspace.changed) return false;
    await workspace.revert();
    return true;
  }

  async refundAll(): Promise<void> {
    if (this.run.charged.length === 0) return;
    await this.refund(this.run.charged);
  }

  /** Refunds these debits (each once) and tells the credits left. */
  private async refund(keys: readonly string[]): Promise<void> {
    for (const debitKey of keys) {
      if (this.run.refundedKeys.has(debitKey)) continue;
      const refund = await this.run.deps.refundCredit.execute({ userId: this.run.turn.userId, debitKey });
      if (refund.ok || refund.error.code === 'CREDITS.ALREADY_REFUNDED') this.run.refundedKeys.add(debitKey);
    }
    const { balances } = await this.run.deps.ledger.summary(this.run.turn.userId);
    this.run.emit({ type: 'credits', charged: this.run.charged.length, refunded: this.run.refundedKeys.size, creditsRemaining: totalBalance(balances) });
  }
}
