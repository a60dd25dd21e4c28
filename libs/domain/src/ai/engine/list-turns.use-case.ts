import type { ProjectNotFound } from '../../projects/project.errors.js';
import { ok, type Result } from '../../shared/result.js';
import type { Turn } from './turn.entity.js';
import type { TurnDependencies } from './turn-engine.js';

/** A project's chat history, oldest first (its owner only). */
export class ListTurns {
  constructor(private readonly deps: Pick<TurnDependencies, 'projects' | 'turns'>) {}

  async execute(input: { readonly userId: string; readonly projectId: string }): Promise<Result<readonly Turn[], ProjectNotFound>> {
    const owned = await this.deps.projects.find(input.userId, input.projectId);
    if (!owned.ok) return owned;
    const turns = await this.deps.turns.listByProject(input.projectId);
    return ok(turns.filter((t) => t.userId === input.userId));
  }
}
