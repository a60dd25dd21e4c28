/**
 * What one project's storage may hold (issue 18 "Quotas per plan"): the bytes of all its objects,
 * measured from their metadata before each upload, and the largest single file (the global cap,
 * under which each bucket may set a lower file_size_limit).
 */
export interface StorageLimits {
  readonly quotaBytes: number;
}

/** Per plan (config: STORAGE_FREE_QUOTA_MB / STORAGE_PAID_QUOTA_MB); STORAGE_MAX_FILE_MB caps one file on every plan. */
export interface StoragePlanLimits {
  readonly free: StorageLimits;
  readonly paid: StorageLimits;
  readonly maxFileBytes: number;
}

const MB = 1024 * 1024;

/** Defaults (docs/databases.md "Storage"): 500 MB free, 10 GB paid, 50 MB a file. */
export const DEFAULT_STORAGE_PLAN_LIMITS: StoragePlanLimits = {
  free: { quotaBytes: 500 * MB },
  paid: { quotaBytes: 10 * 1024 * MB },
  maxFileBytes: 50 * MB,
};

/** The free plan (and an unknown one) gets the free quota, any other plan the paid one. */
export function storageLimitsFor(planId: string, limits: StoragePlanLimits): StorageLimits {
  return planId === 'free' || planId === '' ? limits.free : limits.paid;
}

/** Whether writing `incomingBytes` (replacing `replacedBytes`) keeps `usedBytes` within the quota. */
export function fitsStorageQuota(usedBytes: number, replacedBytes: number, incomingBytes: number, limits: StorageLimits): boolean {
  return usedBytes - replacedBytes + incomingBytes <= limits.quotaBytes;
}

/** The largest file a bucket takes: its own limit under the global cap. */
export function fileLimitOf(bucketLimit: number | null, maxFileBytes: number): number {
  return bucketLimit === null ? maxFileBytes : Math.min(bucketLimit, maxFileBytes);
}
