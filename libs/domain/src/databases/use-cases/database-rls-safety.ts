import type { DatabaseSafety, DatabaseSafetyCheck } from '../../hosting/database-safety.port.js';
import { DatabaseServerDown } from '../databases.errors.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';

/** The publish gate's view of a project's database: tables of `public` with RLS off, by name. */
export class DatabaseRlsSafety implements DatabaseSafety {
  constructor(
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
  ) {}

  async check(projectId: string): Promise<DatabaseSafetyCheck> {
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return { kind: 'checked', tablesWithoutRls: [] };
    try {
      const inspection = await this.provisioner.inspect(database.ref);
      return { kind: 'checked', tablesWithoutRls: (inspection?.tables ?? []).filter((t) => !t.rlsEnabled).map((t) => t.name) };
    } catch (error) {
      if (error instanceof DatabaseServerDown) return { kind: 'unavailable', reason: error.message };
      throw error;
    }
  }
}
