/** SPEC §5: progress values clamp to 0–100 (NaN counts as 0). */
export function clampProgress(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(100, Math.max(0, value));
}

/**
 * SPEC §5: percent used is rounded, capped at 100, and 0 when the limit is 0 or less or
 * unlimited. The one place a usage percentage is computed.
 */
export function percentUsed(used: number, limit: number | 'unlimited'): number {
  if (limit === 'unlimited' || limit <= 0) return 0;
  return clampProgress(Math.round((used / limit) * 100));
}

/** SPEC §5: unlimited displays as ∞. */
export function displayLimit(limit: number | 'unlimited'): string {
  return limit === 'unlimited' || limit === -1 ? '∞' : String(limit);
}
