import type { ProfileRepository } from '../../profiles/profile-repository.port.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import { type DatabasePlanLimits, overQuota } from '../database-limits.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import { type DatabaseQuotaExceeded, type DatabaseServerUnavailable, databaseQuotaExceeded } from '../databases.errors.js';
import { databaseLimitsOf } from './provision-database.use-case.js';
import { providerCall } from './provider-call.js';

/** How long a measured size is trusted before measuring again. */
export const QUOTA_MEASURE_EVERY_MS = 30_000;

/**
 * For the data API before a write: is the project's database within its plan's size quota?
 * PostgreSQL cannot cap a database's size, so it is measured (at most every 30 s per database)
 * and writes past the quota get 402 DATABASES.QUOTA_EXCEEDED; reads and deletes stay allowed.
 */
export class DatabaseQuotaGuard {
  private readonly measured = new Map<string, { sizeBytes: number; at: number }>();

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly provisioner: DatabaseProvisioner,
    private readonly limits: DatabasePlanLimits,
    private readonly clock: Clock,
  ) {}

  async checkWrite(database: { readonly ref: string; readonly ownerId: string }): Promise<Result<void, DatabaseQuotaExceeded | DatabaseServerUnavailable>> {
    const now = this.clock.now().getTime();
    let entry = this.measured.get(database.ref);
    if (!entry || now - entry.at >= QUOTA_MEASURE_EVERY_MS) {
      const inspection = await providerCall(() => this.provisioner.inspect(database.ref));
      if (!inspection.ok) return inspection;
      entry = { sizeBytes: inspection.value?.sizeBytes ?? 0, at: now };
      this.measured.set(database.ref, entry);
    }
    const limits = await databaseLimitsOf(this.profiles, database.ownerId, this.limits);
    if (overQuota(entry.sizeBytes, limits)) return err(databaseQuotaExceeded(entry.sizeBytes, limits.sizeMb * 1024 * 1024));
    return ok(undefined);
  }
}
