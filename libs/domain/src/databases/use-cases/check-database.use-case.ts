import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { ProfileRepository } from '../../profiles/profile-repository.port.js';
import { type Result, ok } from '../../shared/result.js';
import { type DatabaseLimits, type DatabasePlanLimits, overQuota } from '../database-limits.js';
import type { DatabaseInspection, DatabaseProvisioner } from '../database-provisioner.port.js';
import type { DatabaseServerUnavailable } from '../databases.errors.js';
import type { ProjectDatabase } from '../project-database.entity.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';
import { databaseLimitsOf } from './provision-database.use-case.js';
import { providerCall } from './provider-call.js';

export type DatabaseCheck =
  | { readonly connected: false }
  | {
      readonly connected: true;
      readonly database: ProjectDatabase;
      readonly inspection: DatabaseInspection;
      readonly limits: DatabaseLimits;
      readonly overQuota: boolean;
    };

/**
 * What GET /api/db/check reports: whether the project has a ready database, its size against the
 * plan's quota, and its tables with row-level security per table. A record whose database is gone
 * from the provider (dropped behind Kiln's back) reports not connected. The builder checks when it
 * opens a project, so this is where a database made by an older Kiln is brought up to the current
 * setup (DatabaseProvisioner.upgrade: a version check when it is current).
 */
export class CheckDatabase {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly profiles: ProfileRepository,
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
    private readonly limits: DatabasePlanLimits,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<DatabaseCheck, ProjectNotFound | DatabaseServerUnavailable>> {
    const project = await this.owned.find(userId, projectId);
    if (!project.ok) return project;
    const database = await this.databases.findByProject(projectId);
    if (!database || database.status !== 'ready') return ok({ connected: false });
    const upgraded = await providerCall(() => this.provisioner.upgrade(database.ref));
    if (!upgraded.ok) return upgraded;
    const inspection = await providerCall(() => this.provisioner.inspect(database.ref));
    if (!inspection.ok) return inspection;
    if (!inspection.value) return ok({ connected: false });
    const limits = await databaseLimitsOf(this.profiles, userId, this.limits);
    return ok({ connected: true, database, inspection: inspection.value, limits, overQuota: overQuota(inspection.value.sizeBytes, limits) });
  }
}
