import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { ProfileRepository } from '../../profiles/profile-repository.port.js';
import type { Clock } from '../../shared/clock.port.js';
import type { IdGenerator } from '../../shared/ids.port.js';
import type { RandomSource } from '../../shared/random.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import { type DatabasePlanLimits, type DatabaseLimits, databaseLimitsFor } from '../database-limits.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import { generateDatabaseRef, generateJwtSecret } from '../database-ref.js';
import { type DatabaseProvisioning, type DatabaseServerUnavailable, databaseProvisioning } from '../databases.errors.js';
import type { ProjectDatabase } from '../project-database.entity.js';
import type { ProjectDatabaseRepository } from '../project-database-repository.port.js';
import { providerCall } from './provider-call.js';

/** A claim older than this belongs to a request that died mid-way: the next provision takes it over. */
export const STALE_PROVISIONING_MS = 2 * 60_000;

export type ProvisionDatabaseError = ProjectNotFound | DatabaseProvisioning | DatabaseServerUnavailable;

/** The limits of a user's plan (the free limits for a user without a profile). */
export async function databaseLimitsOf(profiles: ProfileRepository, userId: string, limits: DatabasePlanLimits): Promise<DatabaseLimits> {
  const profile = await profiles.findById(userId);
  return databaseLimitsFor(profile?.subscriptionPlan ?? 'free', limits);
}

/**
 * Connects a database to one of the caller's projects (POST /api/db/provision). Idempotent: a
 * project that has one gets the same one back (same ref, same keys); a detached one is
 * reattached with its data. Concurrent first calls race on the record's insert (one project, one
 * record): the loser answers DATABASES.PROVISIONING until the winner is done.
 */
export class ProvisionDatabase {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly profiles: ProfileRepository,
    private readonly databases: ProjectDatabaseRepository,
    private readonly provisioner: DatabaseProvisioner,
    private readonly limits: DatabasePlanLimits,
    private readonly ids: IdGenerator,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<ProjectDatabase, ProvisionDatabaseError>> {
    const project = await this.owned.find(userId, projectId);
    if (!project.ok) return project;
    const limits = await databaseLimitsOf(this.profiles, userId, this.limits);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const existing = await this.databases.findByProject(projectId);
      if (existing) return this.finish(existing, limits, false);
      const now = this.clock.now();
      const claim: ProjectDatabase = {
        id: this.ids.next(),
        projectId,
        ownerId: userId,
        ref: generateDatabaseRef(this.random),
        provider: this.provisioner.provider,
        status: 'provisioning',
        connection: null,
        jwtSecret: generateJwtSecret(this.random),
        createdAt: now,
        updatedAt: now,
      };
      // false: another request claimed the project first (or, vanishingly rarely, the ref): read again.
      if (await this.databases.insert(claim)) return this.finish(claim, limits, true);
    }
    return err(databaseProvisioning());
  }

  private async finish(database: ProjectDatabase, limits: DatabaseLimits, claimedNow: boolean): Promise<Result<ProjectDatabase, ProvisionDatabaseError>> {
    if (database.status === 'ready') {
      // Made by an older Kiln, perhaps: brought up to the current setup (storage, realtime).
      const upgraded = await providerCall(() => this.provisioner.upgrade(database.ref));
      return upgraded.ok ? ok(database) : upgraded;
    }
    const stale = this.clock.now().getTime() - database.updatedAt.getTime() > STALE_PROVISIONING_MS;
    if (database.status === 'provisioning' && !claimedNow && !stale) return err(databaseProvisioning());
    const created = await providerCall(() => this.provisioner.provision(database.ref, limits)).catch(async (error: unknown) => {
      // A bug, not an outage: still release a fresh claim so it does not block the project for minutes.
      if (claimedNow) await this.databases.remove(database.id);
      throw error;
    });
    if (!created.ok) {
      // Nothing usable was made: a fresh claim is released so the next try starts clean.
      if (claimedNow) await this.databases.remove(database.id);
      return created;
    }
    const ready: ProjectDatabase = { ...database, provider: this.provisioner.provider, status: 'ready', connection: created.value, updatedAt: this.clock.now() };
    await this.databases.update(ready);
    return ok(ready);
  }
}
