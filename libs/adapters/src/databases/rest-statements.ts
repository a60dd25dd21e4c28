import { type Prefer, REST_LIMITS, type RestQuery, type RestResult, restFail, restOk } from '@kiln/domain';
import type { FunctionInfo, SchemaInfo, TableInfo } from './pg-schema-cache.js';
import { type CompiledStatement, RestSqlCompiler, quoteIdent, unknownColumn } from './rest-sql-compiler.js';

/**
 * Every statement answers one row: `body` (the JSON text to send, or null), `n` (rows read or
 * changed) and, when counted, `total`. Mutations return at most `maxRows + 1` rows' worth of count
 * so the caller can refuse (and roll back) a change of too many rows.
 */
const page = (source: string, list: string, representation: boolean) =>
  `SELECT ${representation ? `coalesce(json_agg(p), '[]'::json)::text` : 'null::text'} AS body, count(*)::int AS n FROM (SELECT ${list} FROM ${source} AS t0) AS p`;

/**
 * A read of `t0`: by default the table itself; an rpc passes its call as `t0` (a materialized CTE,
 * so a counted read runs the function once) and the compiler that holds the call's parameters.
 */
export function selectStatement(
  schema: SchemaInfo,
  table: TableInfo,
  query: RestQuery,
  window: { offset: number; limit: number },
  prefer: Prefer,
  head: boolean,
  source: { readonly compiler: RestSqlCompiler; readonly with: string; readonly from: string } | null = null,
): RestResult<CompiledStatement> {
  const c = source?.compiler ?? new RestSqlCompiler(schema, table);
  const list = c.selectList(query.select);
  if (!list.ok) return list;
  const where = c.where(query.filters, list.value.innerJoins);
  if (!where.ok) return where;
  const order = c.orderBy(query);
  if (!order.ok) return order;
  const from = `${source?.from ?? `public.${quoteIdent(table.name)}`} AS t0 WHERE ${where.value}`;
  const rows = `(SELECT ${list.value.list} FROM ${from}${order.value} LIMIT ${c.param(window.limit)} OFFSET ${c.param(window.offset)}) AS p`;
  const total = prefer.count === null ? '' : `, (SELECT count(*) FROM ${from})::bigint AS total`;
  const body = head ? 'null::text' : `coalesce(json_agg(p), '[]'::json)::text`;
  return restOk({ sql: `${source?.with ?? ''}SELECT ${body} AS body, count(*)::int AS n${total} FROM ${rows}`, params: c.params });
}

/** Keys of the body's objects, all of them columns of the table (or `columns=`, PostgREST's choice). */
function bodyColumns(table: TableInfo, rows: readonly Record<string, unknown>[], columns: readonly string[] | null): RestResult<readonly string[]> {
  const names = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  for (const name of names) if (!table.columns.has(name)) return { ok: false, error: unknownColumn(table.name, name) };
  if (names.length === 0) return restFail(400, 'PGRST102', 'Empty or invalid json', 'the body names no column');
  return restOk(names);
}

export function insertStatement(schema: SchemaInfo, table: TableInfo, query: RestQuery, body: unknown, prefer: Prefer): RestResult<CompiledStatement> {
  const rows = Array.isArray(body) ? body : [body];
  if (rows.length === 0 || rows.length > REST_LIMITS.maxRows || !rows.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    return restFail(400, 'PGRST102', 'Empty or invalid json', `the body must be an object or a list of 1 to ${REST_LIMITS.maxRows} objects`);
  }
  const columns = bodyColumns(table, rows as Record<string, unknown>[], query.columns);
  if (!columns.ok) return columns;
  const c = new RestSqlCompiler(schema, table);
  const list = c.selectList(query.select);
  if (!list.ok) return list;
  const names = columns.value.map(quoteIdent).join(', ');
  let conflict = '';
  if (prefer.resolution !== null || query.onConflict !== null) {
    const target = query.onConflict ?? table.primaryKey;
    for (const name of target) if (!table.columns.has(name)) return { ok: false, error: unknownColumn(table.name, name) };
    if (target.length === 0) return restFail(400, 'PGRST100', 'on_conflict is needed: the table has no primary key');
    const updates = columns.value.filter((n) => !target.includes(n)).map((n) => `${quoteIdent(n)} = EXCLUDED.${quoteIdent(n)}`);
    const action = prefer.resolution === 'ignore-duplicates' || updates.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${updates.join(', ')}`;
    conflict = ` ON CONFLICT (${target.map(quoteIdent).join(', ')}) ${action}`;
  }
  const json = c.param(JSON.stringify(rows));
  const t = `public.${quoteIdent(table.name)}`;
  // PostgREST: a key missing from an object is NULL, or the column's default with `missing=default`
  // (then a VALUES list, where DEFAULT may stand in a cell).
  const source =
    prefer.missing === 'default'
      ? `VALUES ${(rows as Record<string, unknown>[])
          .map((row, i) => `(${columns.value.map((n) => (Object.hasOwn(row, n) ? `(json_populate_record(NULL::${t}, ${json}::json->${i})).${quoteIdent(n)}` : 'DEFAULT')).join(', ')})`)
          .join(', ')}`
      : `SELECT ${names} FROM json_populate_recordset(NULL::${t}, ${json}::json)`;
  const insert = `INSERT INTO ${t} (${names}) ${source}${conflict} RETURNING *`;
  return restOk({ sql: `WITH m AS (${insert}) ${page('m', list.value.list, prefer.return === 'representation')}`, params: c.params });
}

export function updateStatement(schema: SchemaInfo, table: TableInfo, query: RestQuery, body: unknown, prefer: Prefer): RestResult<CompiledStatement> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return restFail(400, 'PGRST102', 'Empty or invalid json', 'PATCH takes one object');
  const columns = bodyColumns(table, [body as Record<string, unknown>], query.columns);
  if (!columns.ok) return columns;
  const c = new RestSqlCompiler(schema, table);
  const list = c.selectList(query.select);
  if (!list.ok) return list;
  const json = c.param(JSON.stringify(body));
  const where = c.where(query.filters);
  if (!where.ok) return where;
  const sets = columns.value.map((n) => `${quoteIdent(n)} = b.${quoteIdent(n)}`).join(', ');
  const update = `UPDATE public.${quoteIdent(table.name)} AS t0 SET ${sets} FROM json_populate_record(NULL::public.${quoteIdent(table.name)}, ${json}::json) AS b WHERE ${where.value} RETURNING t0.*`;
  return restOk({ sql: `WITH m AS (${update}) ${page('m', list.value.list, prefer.return === 'representation')}`, params: c.params });
}

export function deleteStatement(schema: SchemaInfo, table: TableInfo, query: RestQuery, prefer: Prefer): RestResult<CompiledStatement> {
  const c = new RestSqlCompiler(schema, table);
  const list = c.selectList(query.select);
  if (!list.ok) return list;
  const where = c.where(query.filters);
  if (!where.ok) return where;
  const del = `DELETE FROM public.${quoteIdent(table.name)} AS t0 WHERE ${where.value} RETURNING t0.*`;
  return restOk({ sql: `WITH m AS (${del}) ${page('m', list.value.list, prefer.return === 'representation')}`, params: c.params });
}

/** What a function call's query string asks of its rows: `select`, filters, `order`, a window, a count. */
export interface RpcShape {
  readonly query: RestQuery;
  readonly window: { readonly offset: number; readonly limit: number };
  /** `limit`/`offset`/`Range` given: not the default window. */
  readonly windowed: boolean;
  readonly prefer: Prefer;
  readonly head: boolean;
}

/** `select` (other than `*`), filters, `order` or a window: these need the rows' columns. */
const asksForRows = (shape: RpcShape): boolean =>
  (shape.query.select !== null && shape.query.select.some((i) => i.kind !== 'star')) || shape.query.filters.length > 0 || shape.query.order.length > 0 || shape.windowed;

/**
 * `public.fn(a => $1, …)` with arguments by name: the overload whose names match those given
 * (every argument without a default given, none unknown). Values go as text (JSON for objects and
 * lists) cast to the argument's catalog type. A function returning a set of a `public` table's
 * rows is read like that table (PostgREST: `rpc('f').select('a').eq('b', 1).order('a')`); other
 * functions refuse such a query rather than ignore it.
 */
export function rpcStatement(schema: SchemaInfo, name: string, args: Record<string, unknown>, shape: RpcShape | null = null): RestResult<CompiledStatement & { fn: FunctionInfo }> {
  const given = Object.keys(args);
  const fn = (schema.functions.get(name) ?? []).find(
    (f) => given.every((g) => f.args.some((a) => a.name === g)) && f.args.every((a) => a.hasDefault || given.includes(a.name)),
  );
  if (fn === undefined) {
    return restFail(404, 'PGRST202', `Could not find the function public.${name.slice(0, 63)}(${given.map((g) => g.slice(0, 63)).join(', ')}) in the schema cache`, null, 'Only functions of the public schema can be called, with arguments by name.');
  }
  const rowsOf = fn.returnsSet && fn.returnsTable !== null ? schema.tables.get(fn.returnsTable) : undefined;
  const c = new RestSqlCompiler(schema, rowsOf ?? { name: fn.name, columns: new Map(), primaryKey: [] });
  const named = given.map((g) => {
    const arg = fn.args.find((a) => a.name === g) as FunctionInfo['args'][number];
    const v = args[g];
    const value = v === null || v === undefined ? null : typeof v === 'object' && !(Array.isArray(v) && !/json/.test(arg.type)) ? JSON.stringify(v) : Array.isArray(v) ? v : String(v);
    return `${quoteIdent(g)} => ${c.param(value)}::${arg.type}`;
  });
  const call = `public.${quoteIdent(fn.name)}(${named.join(', ')})`;
  if (shape !== null && asksForRows(shape) && rowsOf === undefined) {
    return restFail(400, 'PGRST100', `select, filters, order and limits apply to functions returning a set of a table's rows; public.${fn.name} does not`, null, 'Call it without them, or return setof public.<table>.');
  }
  // Read like a table when the query asks for it or for a count (PostgREST counts a function's rows).
  if (shape !== null && rowsOf !== undefined && (asksForRows(shape) || shape.prefer.count !== null)) {
    const read = selectStatement(schema, rowsOf, shape.query, shape.window, shape.prefer, shape.head, { compiler: c, with: `WITH t0 AS MATERIALIZED (SELECT * FROM ${call}) `, from: 't0' });
    return read.ok ? restOk({ ...read.value, fn }) : read;
  }
  let sql: string;
  if (fn.returns === 'void') sql = `SELECT null::text AS body, 0 AS n FROM (SELECT ${call}) AS v`;
  else if (fn.returnsSet) sql = `SELECT coalesce(json_agg(r), '[]'::json)::text AS body, count(*)::int AS n FROM (SELECT * FROM ${call} LIMIT ${REST_LIMITS.maxRows}) AS r`;
  else if (fn.returns === 'row') sql = `SELECT row_to_json(r)::text AS body, 1 AS n FROM ${call} AS r`;
  else sql = `SELECT to_json(${call})::text AS body, 1 AS n`;
  return restOk({ sql, params: c.params, fn });
}
