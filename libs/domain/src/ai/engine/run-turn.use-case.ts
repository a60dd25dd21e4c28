import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { DomainError } from '../../shared/domain-error.js';
import { err, ok, type Result } from '../../shared/result.js';
import { createTurn } from './turn.entity.js';
import { type TurnIdempotencyConflict, type TurnInProgress, type TurnMessageInvalid, turnIdempotencyConflict, turnInProgress, turnMessageInvalid } from './turn.errors.js';
import { replayTurn, startTurn, type TurnDependencies, type TurnRun } from './turn-engine.js';

export interface RunTurnInput {
  readonly userId: string;
  readonly projectId: string;
  /** What the person asked for. */
  readonly message: string;
  /** The client's key for this message: a retried request replays the turn instead of running it again. */
  readonly idempotencyKey: string;
  /** Run a plan of several tasks without waiting for approval. */
  readonly autoRun: boolean;
  /** Files attached to the message (attachment ids of the project); each becomes a line of the message. */
  readonly attachmentIds?: readonly string[];
}

export type RunTurnError = ProjectNotFound | TurnIdempotencyConflict | TurnInProgress | TurnMessageInvalid | DomainError;

/**
 * One chat message of a project (docs/ai-api.md): the turn is stored, queued behind the
 * project's running turn, then read (tree, context files, baseline error scan), planned, and
 * either stopped to wait for approval (several tasks, autoRun off, nothing charged) or run:
 * each task is charged one credit (key `turn:<id>:task:<n>`) before the assistant is asked, its
 * operations applied to the sandbox with every touched file remembered; then the project is
 * checked and repaired (free rounds) if it got worse, and the turn is kept (one commit, the
 * message as its text) or reverted (files restored exactly, every credit refunded). A refused
 * first debit ends the stream with CREDITS.LIMIT_REACHED before anything was charged or changed.
 * The returned run streams the events; the work goes on if nobody reads them.
 */
export class RunTurn {
  constructor(private readonly deps: TurnDependencies) {}

  async execute(input: RunTurnInput): Promise<Result<TurnRun, RunTurnError>> {
    const owned = await this.deps.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const message = await this.withAttachments(input);
    if (!message.ok) return message;
    const candidate = createTurn({ ...input, message: message.value }, { id: this.deps.ids.next(), now: this.deps.clock.now() });
    if (!candidate.ok) return candidate;
    const added = await this.deps.turns.add(candidate.value);
    if (added.created) return ok(startTurn(this.deps, added.turn, 'message'));
    const existing = added.turn;
    if (existing.projectId !== input.projectId || existing.message !== message.value) return err(turnIdempotencyConflict(input.idempotencyKey));
    if (existing.status === 'queued' || existing.status === 'running') return err(turnInProgress(existing.id));
    return ok(replayTurn(existing));
  }

  /** The message with a line per attached file (the attachments room checks they are the project's). */
  private async withAttachments(input: RunTurnInput): Promise<Result<string, DomainError>> {
    const ids = input.attachmentIds ?? [];
    if (ids.length === 0) return ok(input.message);
    if (this.deps.attachments === undefined) return err(turnMessageInvalid('attachments are not available here'));
    return this.deps.attachments.attach(input.projectId, input.message, ids);
  }
}
