import type { Result } from '../shared/result.js';
import type { ProjectNotFound } from './project.errors.js';

/**
 * Whose project it is, for every use case that acts on one: someone else's project, a deleted
 * one and a missing one are all PROJECTS.NOT_FOUND, so ids leak nothing. OwnedProjects is it.
 */
export interface ProjectOwnership {
  find(userId: string, projectId: string): Promise<Result<unknown, ProjectNotFound>>;
  /** Marks the project as edited now (its updated_at: the home page lists recently edited first). */
  touch(userId: string, projectId: string): Promise<void>;
}
