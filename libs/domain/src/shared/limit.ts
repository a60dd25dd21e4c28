/**
 * A count allowance that may be unlimited. The SPEC writes "no limit" as -1 or the word
 * 'unlimited'; inside the domain it is one tagged value so no caller compares with -1.
 */
export type Limit = { readonly kind: 'limited'; readonly value: number } | { readonly kind: 'unlimited' };

export type RawLimit = number | 'unlimited';

export const UNLIMITED: Limit = Object.freeze({ kind: 'unlimited' });

export function limited(value: number): Limit {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`A limit must be a non-negative safe integer, got ${value}`);
  }
  return Object.freeze({ kind: 'limited', value });
}

/** Reads the SPEC's wire form: -1 and 'unlimited' mean no limit. */
export function parseLimit(raw: RawLimit): Limit {
  if (raw === 'unlimited' || raw === -1) return UNLIMITED;
  return limited(raw);
}

/** Writes the wire form used by usage stats: -1 for unlimited. */
export function limitToNumber(limit: Limit): number {
  return limit.kind === 'unlimited' ? -1 : limit.value;
}

export function isUnlimited(limit: Limit): boolean {
  return limit.kind === 'unlimited';
}

/** True when `count` more items may still be added under the limit. */
export function isBelow(count: number, limit: Limit): boolean {
  return limit.kind === 'unlimited' || count < limit.value;
}
