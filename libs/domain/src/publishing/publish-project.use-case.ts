import type { OwnedProjects } from '../projects/owned-projects.js';
import { type Project, isPublished } from '../projects/project.entity.js';
import type { ProjectNotFound } from '../projects/project.errors.js';
import type { ProjectRepository } from '../projects/project-repository.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { CheckPublishAllowed } from './check-publish-allowed.use-case.js';
import { type PublishError, publishLimitReached } from './publishing.errors.js';

export interface PublishChanges {
  /** A host name publishes (or moves) the project; null unpublishes it. */
  readonly domain: string | null;
  /** Renamed in the same write, when given. */
  readonly name?: string;
}

/** Publishing a user's own project at a domain, moving it, or unpublishing it, within the plan's limit. */
export class PublishProject {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly projects: ProjectRepository,
    private readonly checkPublishAllowed: CheckPublishAllowed,
    private readonly clock: Clock,
  ) {}

  /** May this project be published (or change its domain)? */
  async check(userId: string, id: string): Promise<Result<{ limit: number | 'unlimited' }, ProjectNotFound | PublishError>> {
    const project = await this.owned.find(userId, id);
    if (!project.ok) return project;
    return this.checkPublishAllowed.execute({ userId, projectId: id });
  }

  async execute(userId: string, id: string, changes: PublishChanges): Promise<Result<Project, ProjectNotFound | PublishError>> {
    const found = await this.owned.find(userId, id);
    if (!found.ok) return found;
    const updated: Project = {
      ...found.value,
      ...(changes.name === undefined ? {} : { name: changes.name }),
      domain: changes.domain,
      updatedAt: this.clock.now(),
    };
    // Unpublishing, or moving an already-published project, adds nothing to the count.
    if (updated.domain === null || updated.status !== 'active' || isPublished(found.value)) {
      await this.projects.update(updated);
      return ok(updated);
    }
    // The check gives SPEC §8's answer; the write re-checks the count atomically, so two
    // concurrent publishes cannot both take the last slot.
    const allowed = await this.checkPublishAllowed.execute({ userId, projectId: id });
    if (!allowed.ok) return allowed;
    const limit = allowed.value.limit === 'unlimited' ? null : allowed.value.limit;
    if (!(await this.projects.updateWithinPublishLimit(updated, limit))) return err(publishLimitReached(limit ?? 0));
    return ok(updated);
  }
}
