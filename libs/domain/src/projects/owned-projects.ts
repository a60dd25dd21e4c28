import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { Project } from './project.entity.js';
import { type ProjectNotFound, projectNotFound } from './project.errors.js';
import type { ProjectRepository } from './project-repository.port.js';

export interface ProjectChanges {
  readonly name?: string;
}

/**
 * A user's own projects: reading, renaming and deleting (publishing is publishing/'s
 * PublishProject). Someone else's project and a deleted one answer PROJECTS.NOT_FOUND, the same
 * as a missing one, so ids leak nothing.
 */
export class OwnedProjects {
  constructor(
    private readonly projects: ProjectRepository,
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

  async update(userId: string, id: string, changes: ProjectChanges): Promise<Result<Project, ProjectNotFound>> {
    const found = await this.find(userId, id);
    if (!found.ok) return found;
    const updated: Project = { ...found.value, ...(changes.name === undefined ? {} : { name: changes.name }), updatedAt: this.clock.now() };
    await this.projects.update(updated);
    return ok(updated);
  }

  /** Soft delete: the row stays with status deleted and stops counting against limits. */
  /** The project was edited now (an AI turn kept changes): only its updated_at moves. */
  async touch(userId: string, id: string): Promise<void> {
    const found = await this.find(userId, id);
    // Only updated_at, in one write: a delete landing after the read is not undone.
    if (found.ok) await this.projects.touch(id, this.clock.now());
  }

  async delete(userId: string, id: string): Promise<Result<void, ProjectNotFound>> {
    const found = await this.find(userId, id);
    if (!found.ok) return found;
    await this.projects.update({ ...found.value, status: 'deleted', updatedAt: this.clock.now() });
    return ok(undefined);
  }
}
