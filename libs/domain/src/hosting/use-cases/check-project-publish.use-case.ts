import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { Result } from '../../shared/result.js';
import type { CheckPublishAllowed } from '../check-publish-allowed.use-case.js';
import type { PublishError } from '../publishing.errors.js';

/** The pre-publish check of one of the caller's projects (GET /api/projects/:id/publish-check). */
export class CheckProjectPublish {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly checkPublishAllowed: CheckPublishAllowed,
  ) {}

  async execute(input: { userId: string; projectId: string }): Promise<Result<{ limit: number | 'unlimited' }, ProjectNotFound | PublishError>> {
    const project = await this.owned.find(input.userId, input.projectId);
    if (!project.ok) return project;
    return this.checkPublishAllowed.execute({ userId: input.userId, projectId: input.projectId });
  }
}
