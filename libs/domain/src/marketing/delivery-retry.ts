/** The first retry of a failed delivery waits this long; each later one twice as long. */
export const FIRST_RETRY_DELAY_MS = 30_000;
/** No retry waits longer than this (the audience may be down for hours; we keep trying). */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** How long a delivery taken by a worker is its own before another worker may take it. */
export const DELIVERY_LEASE_MS = 2 * 60 * 1000;

/**
 * Exponential backoff: after the n-th failed attempt (n ≥ 1) the next one waits
 * 30 s · 2^(n−1), at most one hour. Never gives up: a contact update is never dropped.
 */
export function retryDelayMs(failedAttempts: number): number {
  const n = Math.max(1, Math.floor(failedAttempts));
  if (n > 30) return MAX_RETRY_DELAY_MS;
  return Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (n - 1));
}

export function retryAt(now: Date, failedAttempts: number): Date {
  return new Date(now.getTime() + retryDelayMs(failedAttempts));
}
