import { rangeError } from './parse-rest-query.js';
import { type Prefer, REST_LIMITS, type RestQuery, type RestResult, type RowRange, restOk } from './rest-query.js';

/**
 * `Prefer: return=representation, count=exact, resolution=merge-duplicates, missing=default`.
 * Like PostgREST's lenient handling, preferences it does not know are ignored.
 */
export function parsePrefer(header: string | undefined): Prefer {
  const prefer: { -readonly [K in keyof Prefer]: Prefer[K] } = { return: null, count: null, resolution: null, missing: null };
  for (const part of (header ?? '').slice(0, 1000).split(',')) {
    const [key, value] = part.trim().split('=', 2).map((s) => s.trim());
    if (key === 'return' && (value === 'representation' || value === 'minimal' || value === 'headers-only')) prefer.return = value;
    if (key === 'count' && (value === 'exact' || value === 'planned' || value === 'estimated')) prefer.count = value;
    if (key === 'resolution' && (value === 'merge-duplicates' || value === 'ignore-duplicates')) prefer.resolution = value;
    if (key === 'missing' && value === 'default') prefer.missing = value;
  }
  return prefer;
}

/** `Range: 0-9` (with `Range-Unit: items`, the only unit). Absent or malformed: no range, as PostgREST. */
export function parseRange(header: string | undefined, unit: string | undefined): RestResult<RowRange | null> {
  if (header === undefined || (unit !== undefined && unit !== 'items')) return restOk(null);
  const m = /^\s*(\d{1,20})-(\d{0,20})\s*$/.exec(header);
  if (m === null) return restOk(null);
  const from = Number(m[1]);
  const to = m[2] === '' ? null : Number(m[2]);
  if (to !== null && to < from) return rangeError(`the range ${from}-${to} ends before it starts`);
  if (from > REST_LIMITS.maxOffset) return rangeError(`the range starts above ${REST_LIMITS.maxOffset}`);
  if (to !== null && to - from + 1 > REST_LIMITS.maxRows) return rangeError(`at most ${REST_LIMITS.maxRows} rows may be asked for at once`);
  return restOk({ from, to });
}

/** Rows to skip and return, from `limit`/`offset` and `Range` together; at most maxRows. */
export function readWindow(query: RestQuery, range: RowRange | null): { readonly offset: number; readonly limit: number } {
  const offset = query.offset ?? range?.from ?? 0;
  const fromRange = range?.to == null ? REST_LIMITS.maxRows : range.to - range.from + 1;
  return { offset, limit: Math.min(query.limit ?? REST_LIMITS.maxRows, fromRange, REST_LIMITS.maxRows) };
}

/** `Content-Range` of an answer: `0-9/42`, `*` for an empty page, total `*` when not counted. */
export function contentRange(offset: number, returned: number, total: number | null): string {
  const span = returned === 0 ? '*' : `${offset}-${offset + returned - 1}`;
  return `${span}/${total === null ? '*' : total}`;
}
