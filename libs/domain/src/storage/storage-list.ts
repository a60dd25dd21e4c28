import { type Result, err, ok } from '../shared/result.js';
import { type StorageFailure, invalidRequest } from './storage.errors.js';
import { normaliseListPrefix } from './storage-path.js';

/** SPEC constants (Storage row): list limit 100, offset 0, sorted by name ascending; upload cache-control 3600, upsert off. */
export const STORAGE_DEFAULTS = { listLimit: 100, listOffset: 0, sortColumn: 'name', sortOrder: 'asc', cacheControlSeconds: 3600, upsert: false } as const;
/** The most one list answers (storage-js's listV2 asks 1000 by default). */
export const STORAGE_LIST_MAX = 1000;

export type ListSortColumn = 'name' | 'created_at' | 'updated_at' | 'last_accessed_at';

export interface ListOptions {
  /** The folder listed, without its trailing slash ('' for the top level). */
  readonly prefix: string;
  readonly limit: number;
  readonly offset: number;
  readonly sortColumn: ListSortColumn;
  readonly sortOrder: 'asc' | 'desc';
  /** Names in the folder starting with this (case-insensitive), '' for all. */
  readonly search: string;
}

const COLUMNS: readonly ListSortColumn[] = ['name', 'created_at', 'updated_at', 'last_accessed_at'];

function intIn(value: unknown, fallback: number, min: number, max: number, what: string): Result<number, StorageFailure> {
  if (value === undefined || value === null) return ok(fallback);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) return err(invalidRequest(`${what} must be a whole number from ${min} to ${max}`));
  return ok(value);
}

/** `POST /object/list/{bucket}`'s body, with the SPEC's defaults for what is missing. */
export function parseListOptions(body: unknown): Result<ListOptions, StorageFailure> {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const prefix = normaliseListPrefix(b['prefix']);
  if (!prefix.ok) return prefix;
  const limit = intIn(b['limit'], STORAGE_DEFAULTS.listLimit, 1, STORAGE_LIST_MAX, 'limit');
  if (!limit.ok) return limit;
  const offset = intIn(b['offset'], STORAGE_DEFAULTS.listOffset, 0, 1_000_000, 'offset');
  if (!offset.ok) return offset;
  const sortBy = (typeof b['sortBy'] === 'object' && b['sortBy'] !== null ? b['sortBy'] : {}) as Record<string, unknown>;
  const column = sortBy['column'] ?? STORAGE_DEFAULTS.sortColumn;
  if (!COLUMNS.includes(column as ListSortColumn)) return err(invalidRequest(`sortBy.column must be one of ${COLUMNS.join(', ')}`));
  const order = String(sortBy['order'] ?? STORAGE_DEFAULTS.sortOrder).toLowerCase();
  if (order !== 'asc' && order !== 'desc') return err(invalidRequest('sortBy.order must be asc or desc'));
  const search = b['search'] ?? '';
  if (typeof search !== 'string' || search.length > 1024) return err(invalidRequest('search must be a string of at most 1024 characters'));
  return ok({ prefix: prefix.value, limit: limit.value, offset: offset.value, sortColumn: column as ListSortColumn, sortOrder: order, search });
}

export interface ListV2Options {
  /** Raw prefix: names starting with it (no folder semantics unless with_delimiter). */
  readonly prefix: string;
  readonly limit: number;
  /** The last name of the previous page. */
  readonly cursor: string | null;
  readonly withDelimiter: boolean;
  readonly sortOrder: 'asc' | 'desc';
}

/** `POST /object/list-v2/{bucket}`: limit 1000 by default, cursor-paged by name. */
export function parseListV2Options(body: unknown): Result<ListV2Options, StorageFailure> {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const prefix = b['prefix'] ?? '';
  if (typeof prefix !== 'string' || prefix.length > 1024 || /[\u0000-\u001f]/.test(prefix)) return err(invalidRequest('prefix must be a string of at most 1024 characters'));
  const limit = intIn(b['limit'], STORAGE_LIST_MAX, 1, STORAGE_LIST_MAX, 'limit');
  if (!limit.ok) return limit;
  const cursor = b['cursor'];
  if (cursor !== undefined && cursor !== null && (typeof cursor !== 'string' || cursor.length > 2048)) return err(invalidRequest('cursor must be the nextCursor of a previous answer'));
  const sortBy = (typeof b['sortBy'] === 'object' && b['sortBy'] !== null ? b['sortBy'] : {}) as Record<string, unknown>;
  const order = String(sortBy['order'] ?? 'asc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') return err(invalidRequest('sortBy.order must be asc or desc'));
  return ok({ prefix: prefix.normalize('NFC'), limit: limit.value, cursor: typeof cursor === 'string' && cursor !== '' ? cursor : null, withDelimiter: b['with_delimiter'] === true, sortOrder: order });
}

/** Upload options (SPEC: cache-control 3600, upsert off): `x-upsert`, `cache-control: max-age=N` or a form's `cacheControl`. */
export function parseCacheControl(value: string | undefined): string {
  if (value === undefined) return String(STORAGE_DEFAULTS.cacheControlSeconds);
  const m = /(?:^|max-age=)\s*(\d{1,9})\s*$/.exec(value.trim());
  return m === null ? String(STORAGE_DEFAULTS.cacheControlSeconds) : String(Number(m[1]));
}

export function parseUpsert(value: string | undefined): boolean {
  return value === undefined ? STORAGE_DEFAULTS.upsert : value.trim().toLowerCase() === 'true';
}
