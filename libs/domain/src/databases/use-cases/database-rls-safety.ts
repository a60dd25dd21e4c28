import type { DatabaseSafety } from '../../hosting/database-safety.port.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';

/** The publish gate's view of a project's database: tables of `public` with RLS off, by name. */
export class DatabaseRlsSafety implements DatabaseSafety {
  constructor(
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
  ) {}

  async tablesWithoutRls(projectId: string): Promise<readonly string[]> {
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return [];
    const inspection = await this.provisioner.inspect(database.ref);
    return (inspection?.tables ?? []).filter((t) => !t.rlsEnabled).map((t) => t.name);
  }
}
