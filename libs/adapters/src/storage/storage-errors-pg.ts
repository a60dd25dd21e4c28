import { type StorageFailure, bucketNotFound, duplicate, rlsDenied, storageFailure, storageUnavailable } from '@kiln/domain';
import { isDatabaseUnavailable } from '../postgres/database-unavailable.js';

/** Thrown inside a storage transaction to roll it back with this answer. */
export class StorageRefusal extends Error {
  constructor(readonly failure: StorageFailure) {
    super(failure.message);
  }
}

/**
 * A failed storage transaction as storage-js's error, or null for a bug (the caller logs it and
 * answers 500). Row-level security refusing a write is 403; the database unreachable, busy or
 * too slow is 503; a project database set up before storage existed is 503 with what to do.
 */
export function storageFailureOf(error: unknown): StorageFailure | null {
  if (error instanceof StorageRefusal) return error.failure;
  if (isDatabaseUnavailable(error)) return storageUnavailable();
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (code === '42501') return rlsDenied();
  if (code === '23505') return duplicate();
  if (code === '23503') return /^update or delete on table "buckets"/.test(message) ? storageFailure(409, 'InvalidRequest', 'The bucket you tried to delete is not empty') : bucketNotFound();
  if (code === '53300' || code === '57014' || code === '57P01' || code.startsWith('08') || code === '40001' || code === '40P01') return storageUnavailable();
  if (code === '3F000' || (code === '42P01' && message.includes('storage.')) || (code === '42883' && message.includes('kiln_'))) {
    return storageFailure(503, 'ServiceUnavailable', 'Storage is not set up in this project database yet: reconnect the database (POST /api/db/provision) to add it');
  }
  if (/timeout exceeded when trying to connect/i.test(message)) return storageUnavailable();
  return null;
}
