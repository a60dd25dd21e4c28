import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { OwnedProjects } from './owned-projects.js';
import type { Project } from './project.entity.js';
import { type ProjectNotFound, projectNotFound } from './project.errors.js';
import type { ProjectRepository } from './project-repository.port.js';

/**
 * Renames one of the caller's projects. Only the name and updated_at are written (one targeted
 * write), so a delete landing after the read is never undone: the rename then answers not found.
 */
export class RenameProject {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly projects: ProjectRepository,
    private readonly clock: Clock,
  ) {}

  async execute(userId: string, id: string, name: string): Promise<Result<Project, ProjectNotFound>> {
    const found = await this.owned.find(userId, id);
    if (!found.ok) return found;
    const at = this.clock.now();
    if (!(await this.projects.rename(id, name, at))) return err(projectNotFound(id));
    return ok({ ...found.value, name, updatedAt: at });
  }
}
