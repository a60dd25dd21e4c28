import type { CheckPublishAllowed } from '../publishing/check-publish-allowed.use-case.js';
import { type PublishError, publishLimitReached } from '../publishing/publishing.errors.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type Project, isPublished } from './project.entity.js';
import { type ProjectNotFound, projectNotFound } from './project.errors.js';
import type { ProjectRepository } from './project-repository.port.js';

export interface ProjectChanges {
  readonly name?: string;
  /** A host name publishes (or moves) the project; null unpublishes it. */
  readonly domain?: string | null;
}

/**
 * A user's own projects: reading, renaming, publishing and deleting. Someone else's project and
 * a deleted one answer PROJECTS.NOT_FOUND, the same as a missing one, so ids leak nothing.
 */
export class OwnedProjects {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly checkPublishAllowed: CheckPublishAllowed,
    private readonly clock: Clock,
  ) {}

  async list(userId: string): Promise<readonly Project[]> {
    const projects = await this.projects.listByCreator(userId);
    return projects
      .filter((p) => p.status !== 'deleted')
      .toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  async find(userId: string, id: string): Promise<Result<Project, ProjectNotFound>> {
    const project = await this.projects.findById(id);
    if (!project || project.creatorId !== userId || project.status === 'deleted') return err(projectNotFound(id));
    return ok(project);
  }

  /** May this project be published (or change its domain)? */
  async publishCheck(userId: string, id: string): Promise<Result<{ limit: number | 'unlimited' }, ProjectNotFound | PublishError>> {
    const project = await this.find(userId, id);
    if (!project.ok) return project;
    return this.checkPublishAllowed.execute({ userId, projectId: id });
  }

  async update(userId: string, id: string, changes: ProjectChanges): Promise<Result<Project, ProjectNotFound | PublishError>> {
    const found = await this.find(userId, id);
    if (!found.ok) return found;
    const updated: Project = {
      ...found.value,
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.domain === undefined ? {} : { domain: changes.domain }),
      updatedAt: this.clock.now(),
    };
    // Unpublishing, renaming, or moving an already-published project adds nothing to the count.
    if (updated.domain === null || updated.status !== 'active' || changes.domain === undefined || isPublished(found.value)) {
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

  /** Soft delete: the row stays with status deleted and stops counting against limits. */
  /** The project was edited now (an AI turn kept changes): only its updated_at moves. */
  async touch(userId: string, id: string): Promise<void> {
    await this.update(userId, id, {});
  }

  async delete(userId: string, id: string): Promise<Result<void, ProjectNotFound>> {
    const found = await this.find(userId, id);
    if (!found.ok) return found;
    await this.projects.update({ ...found.value, status: 'deleted', updatedAt: this.clock.now() });
    return ok(undefined);
  }
}
