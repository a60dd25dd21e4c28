import type { Project } from './project.entity.js';

/** Where projects live (table projects). */
export interface ProjectRepository {
  findById(id: string): Promise<Project | null>;
  listByCreator(creatorId: string): Promise<readonly Project[]>;
  insert(project: Project): Promise<void>;
  /**
   * Inserts the project only while its creator has fewer than `limit` active projects (null:
   * no limit), as one atomic step — concurrent creations cannot exceed the limit. Returns false
   * (and inserts nothing) when the limit is reached.
   */
  insertWithinLimit(project: Project, limit: number | null): Promise<boolean>;
  /**
   * Replaces a stored project that gets (or keeps) a domain, only while its creator's *other*
   * published projects number fewer than `limit` (null: no limit), as one atomic step. Returns
   * false (nothing written) when the limit is reached.
   */
  updateWithinPublishLimit(project: Project, limit: number | null): Promise<boolean>;
  /**
   * Moves only `updatedAt` of a project that is not deleted (one targeted write, so a delete or a
   * rename landing meanwhile is kept); false when there is no such project.
   */
  touch(id: string, at: Date): Promise<boolean>;
  /** Sets only the name and `updatedAt` of a project that is not deleted (one targeted write); false when there is no such project. */
  rename(id: string, name: string, at: Date): Promise<boolean>;
  /** Soft delete: sets only the status (deleted) and `updatedAt` of a project that is not deleted yet; false when there is no such project. */
  markDeleted(id: string, at: Date): Promise<boolean>;
  /** Replaces a stored project; fails with "Record with id {id} not found" when absent. */
  update(project: Project): Promise<void>;
  /** SPEC §7: count of active projects of a creator. */
  countActiveByCreator(creatorId: string): Promise<number>;
  /** SPEC §5/§7: count of active projects of a creator that have a domain (published). */
  countPublishedByCreator(creatorId: string): Promise<number>;
}
