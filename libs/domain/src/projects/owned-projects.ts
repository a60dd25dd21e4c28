import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { Project } from './project.entity.js';
import { type ProjectNotFound, projectNotFound } from './project.errors.js';
import type { ProjectOwnership } from './project-ownership.js';
import type { ProjectRepository } from './project-repository.port.js';

/**
 * Whose project it is (ProjectOwnership), for every use case that acts on one. Someone else's
 * project and a deleted one answer PROJECTS.NOT_FOUND, the same as a missing one, so ids leak
 * nothing. Listing, renaming and deleting are their own use cases (list-projects,
 * rename-project, delete-project); publishing is hosting/'s PublishProject.
 */
export class OwnedProjects implements ProjectOwnership {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly clock: Clock,
  ) {}

  async find(userId: string, id: string): Promise<Result<Project, ProjectNotFound>> {
    const project = await this.projects.findById(id);
    if (!project || project.creatorId !== userId || project.status === 'deleted') return err(projectNotFound(id));
    return ok(project);
  }

  /** The project was edited now (an AI turn kept changes): only its updated_at moves. */
  async touch(userId: string, id: string): Promise<void> {
    const found = await this.find(userId, id);
    // Only updated_at, in one write: a delete landing after the read is not undone.
    if (found.ok) await this.projects.touch(id, this.clock.now());
  }
}
