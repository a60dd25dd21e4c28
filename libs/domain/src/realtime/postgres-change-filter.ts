import { type Result, err, ok } from '../shared/result.js';
import type { RealtimeError } from './realtime-rules.js';

export type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE';
export type ChangeFilterOperator = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte' | 'in';

/** `column=op.value` as realtime-js's `filter` sends it (`id=eq.1`, `status=in.(a,b)`). */
export interface ChangeFilter {
  readonly column: string;
  readonly op: ChangeFilterOperator;
  /** One value, or the list of `in`. */
  readonly values: readonly string[];
}

/** One `postgres_changes` binding of a join, checked. `table` null: every table of the schema. */
export interface ChangeSubscription {
  readonly event: ChangeEvent | '*';
  readonly schema: string;
  readonly table: string | null;
  readonly filter: ChangeFilter | null;
  /** What the client sent, echoed in the join reply (realtime-js compares them field by field). */
  readonly echo: { readonly event: string; readonly schema: string; readonly table?: string; readonly filter?: string };
}

const OPERATORS: readonly ChangeFilterOperator[] = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in'];
const IDENT = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
const MAX_FILTER = 1024;
const MAX_IN_VALUES = 100;

const invalid = (message: string) => err<RealtimeError>({ code: 'REALTIME.INVALID_FILTER', message });

export function parseChangeFilter(text: string): Result<ChangeFilter, RealtimeError> {
  if (text.length > MAX_FILTER) return invalid(`A filter may have at most ${MAX_FILTER} characters`);
  const m = /^([^=]+)=([a-z]+)\.(.*)$/s.exec(text);
  if (m === null) return invalid('A filter is "column=operator.value", e.g. "id=eq.1"');
  const [, column = '', op = '', raw = ''] = m;
  if (!IDENT.test(column)) return invalid(`Invalid column in filter: ${column.slice(0, 64)}`);
  if (!(OPERATORS as readonly string[]).includes(op)) return invalid(`Unsupported filter operator: ${op}; use one of ${OPERATORS.join(', ')}`);
  if (op !== 'in') return ok({ column, op: op as ChangeFilterOperator, values: [raw] });
  const list = /^\((.*)\)$/s.exec(raw);
  if (list === null) return invalid('An "in" filter is "column=in.(a,b,c)"');
  const values = (list[1] ?? '').split(',').map((v) => v.trim().replace(/^"(.*)"$/s, '$1'));
  if (values.length > MAX_IN_VALUES) return invalid(`An "in" filter may list at most ${MAX_IN_VALUES} values`);
  return ok({ column, op: 'in', values });
}

/** A `postgres_changes` binding from a join's config: only the `public` schema is served. */
export function parseChangeSubscription(input: unknown): Result<ChangeSubscription, RealtimeError> {
  if (typeof input !== 'object' || input === null) return invalid('A postgres_changes binding must be an object');
  const b = input as Record<string, unknown>;
  const event = typeof b['event'] === 'string' ? b['event'].toUpperCase() : '';
  if (!['INSERT', 'UPDATE', 'DELETE', '*'].includes(event)) return invalid('The event of postgres_changes must be INSERT, UPDATE, DELETE or *');
  const schema = b['schema'];
  if (schema !== 'public') return invalid('Only the public schema has postgres_changes');
  const table = b['table'];
  if (table !== undefined && table !== null && (typeof table !== 'string' || !IDENT.test(table))) return invalid('Invalid table of postgres_changes');
  const filterText = b['filter'];
  let filter: ChangeFilter | null = null;
  if (filterText !== undefined && filterText !== null && filterText !== '') {
    if (typeof filterText !== 'string') return invalid('A filter must be a string');
    if (typeof table !== 'string') return invalid('A filter needs a table');
    const parsed = parseChangeFilter(filterText);
    if (!parsed.ok) return parsed;
    filter = parsed.value;
  }
  const echo = {
    event: b['event'] as string,
    schema,
    ...(typeof table === 'string' ? { table } : {}),
    ...(typeof filterText === 'string' && filterText !== '' ? { filter: filterText } : {}),
  };
  return ok({ event: event as ChangeEvent | '*', schema, table: typeof table === 'string' ? table : null, filter, echo });
}

/**
 * Compares a row's value (as JSON gives it) with a filter's text value, as PostgreSQL would for
 * numbers, booleans and text: numbers numerically, everything else as text.
 */
function compare(value: unknown, text: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    const n = Number(text);
    if (text.trim() === '' || Number.isNaN(n)) return null;
    return value === n ? 0 : value < n ? -1 : 1;
  }
  const s = typeof value === 'string' ? value : typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return s === text ? 0 : s < text ? -1 : 1;
}

/** Does a row pass the filter? A null column passes no comparison (SQL's rule). */
export function matchesFilter(filter: ChangeFilter, row: Readonly<Record<string, unknown>>): boolean {
  const value = row[filter.column];
  if (filter.op === 'in') return filter.values.some((v) => compare(value, v) === 0);
  const c = compare(value, filter.values[0] ?? '');
  if (c === null) return false;
  switch (filter.op) {
    case 'eq':
      return c === 0;
    case 'neq':
      return c !== 0;
    case 'lt':
      return c < 0;
    case 'lte':
      return c <= 0;
    case 'gt':
      return c > 0;
    case 'gte':
      return c >= 0;
  }
}

/** Does a change concern a binding (its event and table; the filter is checked on the row)? */
export function concerns(sub: ChangeSubscription, change: { readonly schema: string; readonly table: string; readonly type: ChangeEvent }): boolean {
  return sub.schema === change.schema && (sub.table === null || sub.table === change.table) && (sub.event === '*' || sub.event === change.type);
}
