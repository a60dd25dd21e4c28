import type { ProjectDatabase } from './project-database.entity.js';

/** Kiln's own record of project databases (table project_databases): one per project, refs unique. */
export interface ProjectDatabaseRepository {
  findByProject(projectId: string): Promise<ProjectDatabase | null>;
  findByRef(ref: string): Promise<ProjectDatabase | null>;
  /**
   * Stores a new record; false (and nothing stored) when the project already has one or the ref
   * is taken — the claim that makes concurrent provisioning safe.
   */
  insert(database: ProjectDatabase): Promise<boolean>;
  /** Replaces the record of `database.id`. */
  update(database: ProjectDatabase): Promise<void>;
  /** Forgets the record (and its secrets). */
  remove(id: string): Promise<void>;
}
