import {
  type CheckPublishAllowed,
  type Clock,
  type DomainError,
  type Project,
  type ProjectRepository,
  type PublishError,
  type Result,
  err,
  ok,
} from '@kiln/domain';
import { PROJECT_NOT_FOUND } from '../error-mapping.js';

export type ProjectNotFound = DomainError<typeof PROJECT_NOT_FOUND>;

/** SPEC §5: "Record with id {id} not found" — also for another user's project, so ids leak nothing. */
export const projectNotFound = (id: string): ProjectNotFound => ({ code: PROJECT_NOT_FOUND, message: `Record with id ${id} not found` });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ProjectChanges {
  readonly name?: string;
  /** A host name publishes (or moves) the project; null unpublishes it. */
  readonly domain?: string | null;
}

/**
 * A user's own projects: reading, renaming, publishing and deleting. Someone else's project, a
 * deleted one and an id that is not a UUID all answer PROJECTS.NOT_FOUND, the same as a missing
 * one. An API-side use case because the domain has none for these yet (they belong in
 * libs/domain/src/projects).
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
    if (!UUID.test(id)) return err(projectNotFound(id));
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
    if (changes.domain !== undefined && changes.domain !== null) {
      const allowed = await this.checkPublishAllowed.execute({ userId, projectId: id });
      if (!allowed.ok) return allowed;
    }
    const updated: Project = {
      ...found.value,
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.domain === undefined ? {} : { domain: changes.domain }),
      updatedAt: this.clock.now(),
    };
    await this.projects.update(updated);
    return ok(updated);
  }

  /** Soft delete: the row stays with status deleted and stops counting against limits. */
  async delete(userId: string, id: string): Promise<Result<void, ProjectNotFound>> {
    const found = await this.find(userId, id);
    if (!found.ok) return found;
    await this.projects.update({ ...found.value, status: 'deleted', updatedAt: this.clock.now() });
    return ok(undefined);
  }
}
