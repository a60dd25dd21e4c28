import type { ProfileRepository } from '../../profiles/profile-repository.port.js';
import type { Clock } from '../../shared/clock.port.js';
import { type Result, err, ok } from '../../shared/result.js';
import { type DatabaseLimits, type DatabasePlanLimits, overQuota } from '../database-limits.js';
import type { DatabaseProvisioner } from '../database-provisioner.port.js';
import { type DatabaseQuotaExceeded, type DatabaseServerUnavailable, databaseQuotaExceeded } from '../databases.errors.js';
import { databaseLimitsOf } from './provision-database.use-case.js';
import { providerCall } from './provider-call.js';

/** How long a measured size (and the owner's plan) is trusted before measuring again. */
export const QUOTA_MEASURE_EVERY_MS = 30_000;

/** Past this many databases remembered, the stale ones are forgotten (a long-running server sees many refs). */
const REMEMBERED = 10_000;

interface Measure {
  readonly ownerId: string;
  readonly sizeBytes: number;
  readonly limits: DatabaseLimits;
  readonly at: number;
}

/**
 * For the data API before a write: is the project's database within its plan's size quota?
 * PostgreSQL cannot cap a database's size, so it is measured, and writes past the quota get 402
 * DATABASES.QUOTA_EXCEEDED; reads and deletes stay allowed (the data API does not ask). The size
 * and the owner's plan are looked up together at most every 30 s per database, and concurrent
 * writes share one lookup: a write costs neither Kiln's database nor the provider a round trip.
 * A failed measurement keeps the last one (a provider's hiccup does not stop every write); only a
 * database never measured answers DATABASES.SERVER_UNAVAILABLE.
 */
export class DatabaseQuotaGuard {
  private readonly measured = new Map<string, Measure>();
  private readonly measuring = new Map<string, Promise<Result<Measure, DatabaseServerUnavailable>>>();

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly provisioner: DatabaseProvisioner,
    private readonly limits: DatabasePlanLimits,
    private readonly clock: Clock,
  ) {}

  async checkWrite(database: { readonly ref: string; readonly ownerId: string }): Promise<Result<void, DatabaseQuotaExceeded | DatabaseServerUnavailable>> {
    const known = this.measured.get(database.ref);
    let measure: Measure;
    if (known !== undefined && known.ownerId === database.ownerId && this.clock.now().getTime() - known.at < QUOTA_MEASURE_EVERY_MS) {
      measure = known;
    } else {
      const fresh = await this.measure(database.ref, database.ownerId, known);
      if (!fresh.ok) return fresh;
      measure = fresh.value;
    }
    if (overQuota(measure.sizeBytes, measure.limits)) return err(databaseQuotaExceeded(measure.sizeBytes, measure.limits.sizeMb * 1024 * 1024));
    return ok(undefined);
  }

  /** Forgets what was measured of a database (it was dropped, or its owner's plan changed). */
  forget(ref: string): void {
    this.measured.delete(ref);
  }

  private measure(ref: string, ownerId: string, previous: Measure | undefined): Promise<Result<Measure, DatabaseServerUnavailable>> {
    const key = `${ref}\u0000${ownerId}`;
    let pending = this.measuring.get(key);
    if (pending === undefined) {
      pending = this.lookUp(ref, ownerId, previous).finally(() => this.measuring.delete(key));
      this.measuring.set(key, pending);
    }
    return pending;
  }

  private async lookUp(ref: string, ownerId: string, previous: Measure | undefined): Promise<Result<Measure, DatabaseServerUnavailable>> {
    const at = this.clock.now().getTime();
    const [inspection, limits] = await Promise.all([providerCall(() => this.provisioner.inspect(ref)), databaseLimitsOf(this.profiles, ownerId, this.limits)]);
    let sizeBytes: number;
    if (inspection.ok) sizeBytes = inspection.value?.sizeBytes ?? 0;
    else if (previous !== undefined && previous.ownerId === ownerId) sizeBytes = previous.sizeBytes; // try again in 30 s
    else return inspection;
    const measure: Measure = { ownerId, sizeBytes, limits, at };
    this.remember(ref, measure);
    return ok(measure);
  }

  private remember(ref: string, measure: Measure): void {
    if (this.measured.size >= REMEMBERED) {
      for (const [key, old] of this.measured) if (measure.at - old.at >= QUOTA_MEASURE_EVERY_MS) this.measured.delete(key);
    }
    this.measured.set(ref, measure);
  }
}
