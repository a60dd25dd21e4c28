import { turnTaskDebitKey } from '../../credits/ledger-keys.js';
import { ok, type Result } from '../../shared/result.js';
import { planCost, type Turn } from './turn.entity.js';
import { turnInterrupted } from './turn.errors.js';
import type { TurnDependencies } from './turn-engine.js';
import { turnUndoFrom, undoTurnChanges } from './turn-workspace.js';

/** What became of a turn's files when it was recovered. */
export type RecoveredFiles =
  /** Put back exactly as they were before the turn, from its undo journal. */
  | 'restored'
  /** The turn had not written anything (its journal was empty). */
  | 'untouched'
  /** The project's sandbox no longer exists: there was nothing to put back. */
  | 'sandbox_gone';

export interface RecoveredTurn {
  /** The turn as now stored: failed, TURNS.INTERRUPTED, its credits refunded. */
  readonly turn: Turn;
  readonly files: RecoveredFiles;
}

/** A turn that could not be recovered this time: it stays as it was (and its journal too), for the next start. */
export interface UnrecoveredTurn {
  readonly turnId: string;
  readonly projectId: string;
  readonly cause: unknown;
}

export interface TurnRecoveryReport {
  readonly recovered: readonly RecoveredTurn[];
  readonly unrecovered: readonly UnrecoveredTurn[];
}

/**
 * Ends the turns a stopped process left queued or running (run once at start-up, before new
 * turns are taken: on start every such turn belongs to a process that is gone — one API process,
 * docs/decisions.md). For each turn: its files are put back from its undo journal exactly as the
 * turn's own revert would have done (the same code), every debit it may have made (keys
 * `turn:<id>:task:<n>` for n below the larger of its charged credits and its plan's cost) is
 * refunded — a key never debited is CREDITS.UNKNOWN_DEBIT and one refunded before is replayed or
 * CREDITS.ALREADY_REFUNDED, both fine — and it is stored as failed (TURNS.INTERRUPTED, with a
 * message the person understands); then its journal is cleared. A sandbox that no longer exists
 * has nothing to put back: the turn is still refunded and failed.
 *
 * Each turn on its own: one that cannot be recovered (its files cannot be written back, the
 * ledger fails) is reported and left as it was — still refunded where the refunds went through —
 * and the others go on. Running it again is harmless: everything it does is idempotent, and a
 * recovered turn is no longer queued or running.
 */
export class RecoverInterruptedTurns {
  constructor(private readonly deps: Pick<TurnDependencies, 'turns' | 'undoJournal' | 'sandbox' | 'refundCredit' | 'filesChanged' | 'clock'>) {}

  async execute(): Promise<Result<TurnRecoveryReport, never>> {
    const recovered: RecoveredTurn[] = [];
    const unrecovered: UnrecoveredTurn[] = [];
    for (const turn of await this.deps.turns.listInProgress()) {
      try {
        recovered.push(await this.recover(turn));
      } catch (cause) {
        unrecovered.push({ turnId: turn.id, projectId: turn.projectId, cause });
      }
    }
    return ok({ recovered, unrecovered });
  }

  private async recover(turn: Turn): Promise<RecoveredTurn> {
    const files = await this.restoreFiles(turn);
    const refunded = await this.refundAll(turn);
    if (files.kind === 'failed') throw files.cause;
    const interrupted = turnInterrupted();
    const failed: Turn = {
      ...turn,
      status: 'failed',
      outcome: interrupted.message,
      failureCode: interrupted.code,
      // The stored count may lag behind the ledger (a debit made just before the process stopped).
      creditsCharged: Math.max(turn.creditsCharged, refunded),
      creditsRefunded: refunded,
      updatedAt: this.deps.clock.now(),
    };
    if (!(await this.deps.turns.saveIf(failed, turn.status))) throw new Error(`Turn ${turn.id} changed while it was being recovered`);
    await this.deps.undoJournal.clear(turn.id);
    // As after a reverted turn: the builder reloads everything, and the search index follows.
    if (files.kind === 'restored') this.deps.filesChanged.filesChanged(turn.projectId, { paths: [], reason: 'write' });
    return { turn: failed, files: files.kind };
  }

  private async restoreFiles(turn: Turn): Promise<{ readonly kind: RecoveredFiles } | { readonly kind: 'failed'; readonly cause: unknown }> {
    const undo = turnUndoFrom(await this.deps.undoJournal.entries(turn.id));
    if (undo === null) return { kind: 'untouched' };
    try {
      await undoTurnChanges(this.deps.sandbox, turn.projectId, undo);
      return { kind: 'restored' };
    } catch (cause) {
      return (await this.sandboxExists(turn.projectId)) ? { kind: 'failed', cause } : { kind: 'sandbox_gone' };
    }
  }

  /** A sandbox whose root cannot be listed is gone (the hosts reject every call for a missing sandbox). */
  private async sandboxExists(projectId: string): Promise<boolean> {
    try {
      await this.deps.sandbox.readDirectory(projectId, '.');
      return true;
    } catch {
      return false;
    }
  }

  /** Refunds every debit the turn may have made; answers how many debits it had (all now refunded). */
  private async refundAll(turn: Turn): Promise<number> {
    const keys = Math.max(turn.creditsCharged, turn.plan === null ? 1 : planCost(turn.plan));
    let debits = 0;
    for (let index = 0; index < keys; index += 1) {
      const debitKey = turnTaskDebitKey(turn.id, index);
      const refund = await this.deps.refundCredit.execute({ userId: turn.userId, debitKey });
      if (refund.ok || refund.error.code === 'CREDITS.ALREADY_REFUNDED') debits += 1;
      else if (refund.error.code !== 'CREDITS.UNKNOWN_DEBIT') throw new Error(`Refunding ${debitKey} failed: ${refund.error.code} ${refund.error.message}`);
    }
    return debits;
  }
}
