import type { ProjectNotFound } from '../../projects/project.errors.js';
import { err, ok, type Result } from '../../shared/result.js';
import { type TurnNotAwaitingApproval, type TurnNotFound, turnNotAwaitingApproval, turnNotFound } from './turn.errors.js';
import { startTurn, type TurnDependencies, type TurnRun } from './turn-engine.js';

export interface TurnRef {
  readonly userId: string;
  readonly projectId: string;
  readonly turnId: string;
}

/**
 * Runs a plan that waited for approval, exactly as RunTurn runs a plan (one credit per task,
 * the first debit refused → CREDITS.LIMIT_REACHED and the plan waits again). Two accepts of one
 * plan run it once: the second gets TURNS.NOT_AWAITING_APPROVAL.
 */
export class AcceptTurnPlan {
  constructor(private readonly deps: TurnDependencies) {}

  async execute(input: TurnRef): Promise<Result<TurnRun, ProjectNotFound | TurnNotFound | TurnNotAwaitingApproval>> {
    const owned = await this.deps.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const turn = await this.deps.turns.findById(input.turnId);
    if (turn === null || turn.projectId !== input.projectId || turn.userId !== input.userId) return err(turnNotFound(input.turnId));
    if (turn.status !== 'awaiting_approval') return err(turnNotAwaitingApproval(turn.id, turn.status));
    const queued = { ...turn, status: 'queued' as const, updatedAt: this.deps.clock.now() };
    if (!(await this.deps.turns.saveIf(queued, 'awaiting_approval'))) {
      const now = await this.deps.turns.findById(turn.id);
      return err(turnNotAwaitingApproval(turn.id, now?.status ?? 'cancelled'));
    }
    return ok(startTurn(this.deps, queued, 'accept'));
  }
}
