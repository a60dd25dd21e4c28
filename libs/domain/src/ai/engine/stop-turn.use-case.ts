import type { ProjectNotFound } from '../../projects/project.errors.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { TurnRef } from './accept-turn-plan.use-case.js';
import type { Turn } from './turn.entity.js';
import { type TurnNotFound, turnNotFound } from './turn.errors.js';
import type { TurnDependencies } from './turn-engine.js';

/**
 * The person's Stop (issue #14): a queued or running turn ends at once as 'reverted' — every
 * file it changed put back, the credits of the tasks it had not finished refunded (the task under
 * way included), outcome "Stopped. Your app is as it was before this message; N credits
 * refunded." Resolves with the turn as it ended. Owner only. Idempotent: a turn that already
 * ended (stopped or not) or a plan that waits for approval is answered as it is, unchanged.
 */
export class StopTurn {
  constructor(private readonly deps: Pick<TurnDependencies, 'projects' | 'turns' | 'running'>) {}

  async execute(input: TurnRef): Promise<Result<Turn, ProjectNotFound | TurnNotFound>> {
    const owned = await this.deps.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const turn = await this.deps.turns.findById(input.turnId);
    if (turn === null || turn.projectId !== input.projectId || turn.userId !== input.userId) return err(turnNotFound(input.turnId));
    const ended = turn.status === 'queued' || turn.status === 'running' ? await this.deps.running.stop(turn.id) : null;
    if (ended !== null) return ok(ended);
    // Not run by this process (it just ended, or a first debit was refused and it was forgotten).
    const now = await this.deps.turns.findById(turn.id);
    return now === null ? err(turnNotFound(turn.id)) : ok(now);
  }
}
