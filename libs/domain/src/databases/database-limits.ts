/**
 * What one project database may use. PostgreSQL enforces the connections and timeouts (on the
 * authenticator role); the size quota is measured (CheckDatabase reports it, and the data API
 * refuses writes past it with DATABASES.QUOTA_EXCEEDED).
 */
export interface DatabaseLimits {
  readonly sizeMb: number;
  readonly connections: number;
  readonly statementTimeoutMs: number;
}

/** Limits for the free plan and for every paid plan (config: DATABASE_FREE_* / DATABASE_PAID_*, DATABASE_STATEMENT_TIMEOUT_MS). */
export interface DatabasePlanLimits {
  readonly free: DatabaseLimits;
  readonly paid: DatabaseLimits;
}

/** Defaults (docs/databases.md "Limits"): a hobby app fits in 100 MB; a paid one gets ten times that and more connections. */
export const DEFAULT_DATABASE_PLAN_LIMITS: DatabasePlanLimits = {
  free: { sizeMb: 100, connections: 3, statementTimeoutMs: 5_000 },
  paid: { sizeMb: 1_000, connections: 10, statementTimeoutMs: 15_000 },
};

/** A plan id's limits: the free plan (and an unknown one) gets the free limits, any other plan the paid ones. */
export function databaseLimitsFor(planId: string, limits: DatabasePlanLimits): DatabaseLimits {
  return planId === 'free' || planId === '' ? limits.free : limits.paid;
}

/** Whether a measured size is over the quota. */
export function overQuota(sizeBytes: number, limits: DatabaseLimits): boolean {
  return sizeBytes > limits.sizeMb * 1024 * 1024;
}
