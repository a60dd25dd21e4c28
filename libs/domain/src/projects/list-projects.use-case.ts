import type { Project } from './project.entity.js';
import type { ProjectRepository } from './project-repository.port.js';

/** The caller's projects that are not deleted, newest first (SPEC §7 list; the home page). */
export class ListProjects {
  constructor(private readonly projects: ProjectRepository) {}

  async execute(userId: string): Promise<readonly Project[]> {
    const projects = await this.projects.listByCreator(userId);
    return projects
      .filter((p) => p.status !== 'deleted')
      .toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.id.localeCompare(b.id));
  }
}
