import type { Clock } from '../shared/clock.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';
import type { OwnedProjects } from './owned-projects.js';
import { type ProjectNotFound, projectNotFound } from './project.errors.js';
import type { ProjectAttachmentRemoval } from './project-attachment-removal.port.js';
import type { ProjectDatabaseRemoval } from './project-database-removal.port.js';
import type { ProjectRepository } from './project-repository.port.js';
import type { ProjectTakedown } from './project-takedown.port.js';

/**
 * Soft delete of one of the caller's projects: the row stays with status deleted and stops
 * counting against the plan's limits. Only the status and updated_at are written, so a rename
 * landing meanwhile cannot bring the project back. Its published site is taken down first: a
 * deleted project is never served. Then its database is dropped (nothing brings a deleted project
 * back, so nothing could reach the data again): if its provider cannot be reached the delete
 * fails (503) and may be retried, so no database is left behind a deleted project. The files
 * attached to its prompts go the same way (bytes and rows; a store that is down fails it too).
 */
export class DeleteProject {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly projects: ProjectRepository,
    private readonly clock: Clock,
    private readonly takedown: ProjectTakedown,
    private readonly databases: ProjectDatabaseRemoval,
    /** The files attached to its prompts (absent: a composition without attachments). */
    private readonly attachments?: ProjectAttachmentRemoval,
  ) {}

  async execute(userId: string, id: string): Promise<Result<void, ProjectNotFound | DomainError>> {
    const found = await this.owned.find(userId, id);
    if (!found.ok) return found;
    await this.takedown.takeDown(id);
    const dropped = await this.databases.dropFor(id);
    if (!dropped.ok) return dropped;
    const removed = (await this.attachments?.removeFor(id)) ?? ok(undefined);
    if (!removed.ok) return removed;
    if (!(await this.projects.markDeleted(id, this.clock.now()))) return err(projectNotFound(id));
    return ok(undefined);
  }
}
