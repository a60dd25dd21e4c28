import type { ProjectNotFound } from '../../projects/project.errors.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { Turn } from './turn.entity.js';
import { type TurnNotAwaitingApproval, type TurnNotFound, turnNotAwaitingApproval, turnNotFound } from './turn.errors.js';
import type { TurnDependencies } from './turn-engine.js';
import type { TurnRef } from './accept-turn-plan.use-case.js';

export const CANCELLED_PLAN_MESSAGE = 'This plan was cancelled.';

/** Drops a plan that waits for approval: nothing was charged and nothing changes. Cancelling twice is fine. */
export class CancelTurnPlan {
  constructor(private readonly deps: Pick<TurnDependencies, 'projects' | 'turns' | 'clock'>) {}

  async execute(input: TurnRef): Promise<Result<Turn, ProjectNotFound | TurnNotFound | TurnNotAwaitingApproval>> {
    const owned = await this.deps.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const turn = await this.deps.turns.findById(input.turnId);
    if (turn === null || turn.projectId !== input.projectId || turn.userId !== input.userId) return err(turnNotFound(input.turnId));
    if (turn.status === 'cancelled') return ok(turn);
    if (turn.status !== 'awaiting_approval') return err(turnNotAwaitingApproval(turn.id, turn.status));
    const cancelled: Turn = { ...turn, status: 'cancelled', outcome: CANCELLED_PLAN_MESSAGE, updatedAt: this.deps.clock.now() };
    if (await this.deps.turns.saveIf(cancelled, 'awaiting_approval')) return ok(cancelled);
    const now = await this.deps.turns.findById(turn.id);
    if (now?.status === 'cancelled') return ok(now);
    return err(turnNotAwaitingApproval(turn.id, now?.status ?? 'cancelled'));
  }
}
