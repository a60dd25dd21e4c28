import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import { type DatabaseNotConnected, type DatabaseServerUnavailable, databaseNotConnected } from '../databases.errors.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';
import { providerCall } from './provider-call.js';

export interface DeletedDatabase {
  readonly ref: string;
  /** true: the database, its roles and its data are gone from the provider; false: kept, detached. */
  readonly droppedFromProvider: boolean;
}

/**
 * DELETE /database/{projectId}?deleteFromProvider=…
 * - `true`: drops the database and its roles on the provider, then forgets the record and its
 *   secrets. The data is gone; provisioning again makes a new database with a new ref and keys.
 * - `false`: detaches — the project shows no database and its data origin answers 404, but the
 *   database, its data and Kiln's record (ref, keys) stay; provisioning again reattaches the same
 *   database. A detached database can later be deleted with `true`.
 * The provider is dropped before the record is forgotten, so a failed drop leaves nothing orphaned.
 */
export class DeleteDatabase {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
    private readonly clock: Clock,
  ) {}

  async execute(
    userId: string,
    projectId: string,
    deleteFromProvider: boolean,
  ): Promise<Result<DeletedDatabase, ProjectNotFound | DatabaseNotConnected | DatabaseServerUnavailable>> {
    const project = await this.owned.find(userId, projectId);
    if (!project.ok) return project;
    const database = await this.databases.findByProject(projectId);
    if (!database) return err(databaseNotConnected());
    if (!deleteFromProvider) {
      if (database.status !== 'ready') return err(databaseNotConnected());
      await this.databases.update({ ...database, status: 'detached', updatedAt: this.clock.now() });
      return ok({ ref: database.ref, droppedFromProvider: false });
    }
    const dropped = await providerCall(() => this.provisioner.drop(database.ref));
    if (!dropped.ok) return dropped;
    await this.databases.remove(database.id);
    return ok({ ref: database.ref, droppedFromProvider: true });
  }
}
