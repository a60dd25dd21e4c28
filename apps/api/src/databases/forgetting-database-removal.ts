import type { DomainError, DropProjectDatabase, ObjectStore, ProjectDatabaseRemoval, ProjectDatabaseRepository, Result } from '@kiln/domain';
import type { DataOriginHandler } from './databases.module.js';

/**
 * PROJECT_DATABASE_REMOVAL: a deleted project's database dropped (DropProjectDatabase), then
 * forgotten at once by this process's data origin, whose lookups are otherwise kept for a second
 * (DataApiTargetCache): like the routes' detach and delete, the data origin stops answering for it
 * the moment the delete answers; the database's stored files (ObjectStore, `{ref}/…`) are deleted.
 */
export class ForgettingDatabaseRemoval implements ProjectDatabaseRemoval {
  constructor(
    private readonly drop: DropProjectDatabase,
    private readonly databases: ProjectDatabaseRepository,
    private readonly dataOrigin: DataOriginHandler | null,
    private readonly objects: ObjectStore | null = null,
  ) {}

  async dropFor(projectId: string): Promise<Result<void, DomainError>> {
    const ref = (await this.databases.findByProject(projectId))?.ref;
    const dropped = await this.drop.dropFor(projectId);
    if (dropped.ok && ref !== undefined) {
      await this.dataOrigin?.forget?.(ref);
      // Its files go with it (storage's bytes live under `{ref}/`); a store that is down leaves
      // only unreachable bytes behind (their metadata went with the database): logged, not fatal.
      await this.objects?.deletePrefix(ref).catch((e: unknown) => console.error(`storage: could not delete the files of ${ref}:`, e));
    }
    return dropped;
  }
}
