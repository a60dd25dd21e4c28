import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';
import { DEFAULT_VECTOR_QUERY_LIMIT } from './vector-index.port.js';

export interface InvalidVectorLimit extends DomainError<'VECTOR.INVALID_LIMIT'> {
  readonly limit: number;
}

/** The number of matches to ask for: the default when omitted, else a positive whole number. */
export function vectorQueryLimit(limit?: number | null): Result<number, InvalidVectorLimit> {
  if (limit === undefined || limit === null) return ok(DEFAULT_VECTOR_QUERY_LIMIT);
  if (!Number.isSafeInteger(limit) || limit < 1) {
    return err({ code: 'VECTOR.INVALID_LIMIT', message: `A query limit must be a positive whole number, got ${limit}`, limit });
  }
  return ok(limit);
}
