import type { Project } from './project.entity.js';

/** Where projects live (table projects). */
export interface ProjectRepository {
  findById(id: string): Promise<Project | null>;
  listByCreator(creatorId: string): Promise<readonly Project[]>;
  insert(project: Project): Promise<void>;
  /** Replaces a stored project; fails with "Record with id {id} not found" when absent. */
  update(project: Project): Promise<void>;
  /** SPEC §7: count of active projects of a creator. */
  countActiveByCreator(creatorId: string): Promise<number>;
  /** SPEC §5/§7: count of active projects of a creator that have a domain (published). */
  countPublishedByCreator(creatorId: string): Promise<number>;
}
