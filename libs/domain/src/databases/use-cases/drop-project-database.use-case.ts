import type { ProjectDatabaseRemoval } from '../../projects/project-database-removal.port.js';
import { type Result, ok } from '../../shared/result.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import type { DatabaseServerUnavailable } from '../databases.errors.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';
import { providerCall } from './provider-call.js';

/**
 * Deleting a project drops its database — ready, detached or half-made — like
 * `DELETE /database/{id}?deleteFromProvider=true`: the provider first, then Kiln's record and its
 * secrets, so a failed drop (503) leaves the record and the delete can be retried.
 */
export class DropProjectDatabase implements ProjectDatabaseRemoval {
  constructor(
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
  ) {}

  async dropFor(projectId: string): Promise<Result<void, DatabaseServerUnavailable>> {
    const database = await this.databases.findByProject(projectId);
    if (!database) return ok(undefined);
    const dropped = await providerCall(() => this.provisioner.drop(database.ref));
    if (!dropped.ok) return dropped;
    await this.databases.remove(database.id);
    return ok(undefined);
  }
}
