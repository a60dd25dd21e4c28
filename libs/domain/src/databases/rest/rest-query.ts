/**
 * The data API's model of one PostgREST request (`/rest/v1/{table}` and `/rest/v1/rpc/{fn}`):
 * what supabase-js sends, parsed into a tree the adapter compiles to one parameterised statement.
 * Nothing here has touched the database: names are only syntactically valid, not known to exist.
 */

/** An error in PostgREST's shape (`{code, message, details, hint}`) with the HTTP status to answer. */
export interface RestError {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly details: string | null;
  readonly hint: string | null;
}

export type RestResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RestError };

export const restOk = <T>(value: T): RestResult<T> => ({ ok: true, value });
export const restFail = <T = never>(status: number, code: string, message: string, details: string | null = null, hint: string | null = null): RestResult<T> => ({
  ok: false,
  error: { status, code, message, details, hint },
});
/** PGRST100: the query string does not parse. */
export const parseError = <T = never>(message: string, details: string | null = null): RestResult<T> => restFail(400, 'PGRST100', message, details);

/** Limits against hostile input; each is far above what a generated app sends. */
export const REST_LIMITS = {
  /** Selected items in total (columns and embedded relations, with their own columns). */
  maxSelectItems: 200,
  /** Filters and logic trees in total (each leaf of an `or` counts). */
  maxConditions: 100,
  /** Nesting of `or(…)`/`and(…)`. */
  maxLogicDepth: 6,
  maxInList: 1000,
  maxOrderTerms: 20,
  /** Rows one request may read or return (PostgREST's `db-max-rows`): also the default limit. */
  maxRows: 1000,
  maxOffset: 10_000_000,
  /** One value (after `eq.`, an element of `in`, …). */
  maxValueLength: 8192,
  maxIdentifierLength: 63,
  /** `on_conflict` and `columns`. */
  maxColumnList: 100,
} as const;

export type FilterOperator = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'like' | 'ilike' | 'in' | 'is';
export const FILTER_OPERATORS: readonly FilterOperator[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'in', 'is'];
export type IsValue = 'null' | 'true' | 'false' | 'unknown';
export const IS_VALUES: readonly IsValue[] = ['null', 'true', 'false', 'unknown'];

/** Types a `col::type` cast may name (a fixed list: the type name goes into SQL). */
export const CASTS = ['text', 'integer', 'bigint', 'numeric', 'real', 'double precision', 'boolean', 'json', 'jsonb', 'date', 'timestamptz', 'uuid'] as const;
export type Cast = (typeof CASTS)[number];

export type Filter =
  | { readonly kind: 'filter'; readonly column: string; readonly negated: boolean; readonly op: 'in'; readonly value: readonly string[] }
  | { readonly kind: 'filter'; readonly column: string; readonly negated: boolean; readonly op: 'is'; readonly value: IsValue }
  | { readonly kind: 'filter'; readonly column: string; readonly negated: boolean; readonly op: Exclude<FilterOperator, 'in' | 'is'>; readonly value: string };
export interface LogicTree {
  readonly kind: 'and' | 'or';
  readonly negated: boolean;
  readonly items: readonly Condition[];
}
export type Condition = Filter | LogicTree;

export interface ColumnItem {
  readonly kind: 'column';
  readonly name: string;
  readonly alias: string | null;
  readonly cast: Cast | null;
}
export interface StarItem {
  readonly kind: 'star';
}
/** `alias:relation!hint!inner(columns)`: one level only (its items are columns or `*`). */
export interface EmbedItem {
  readonly kind: 'embed';
  readonly relation: string;
  readonly alias: string | null;
  /** A foreign-key column or constraint name choosing among several relationships. */
  readonly hint: string | null;
  readonly inner: boolean;
  readonly items: readonly (ColumnItem | StarItem)[];
}
export type SelectItem = ColumnItem | StarItem | EmbedItem;

export interface OrderTerm {
  readonly column: string;
  readonly direction: 'asc' | 'desc';
  readonly nulls: 'first' | 'last' | null;
}

/** The query string of a request, parsed. `filters` are ANDed. */
export interface RestQuery {
  /** null: `select` absent (PostgREST: `*`). */
  readonly select: readonly SelectItem[] | null;
  readonly filters: readonly Condition[];
  readonly order: readonly OrderTerm[];
  readonly limit: number | null;
  readonly offset: number | null;
  readonly onConflict: readonly string[] | null;
  readonly columns: readonly string[] | null;
}

export interface Prefer {
  readonly return: 'representation' | 'minimal' | 'headers-only' | null;
  readonly count: 'exact' | 'planned' | 'estimated' | null;
  readonly resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  readonly missing: 'default' | null;
}

/** A `Range: from-to` header (`to` null: open). */
export interface RowRange {
  readonly from: number;
  readonly to: number | null;
}
