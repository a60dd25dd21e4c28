import {
  type DataApiTarget,
  type Prefer,
  REST_LIMITS,
  RESERVED_KEYS,
  type RestError,
  type RestQuery,
  type RestResult,
  type RowRange,
  parseRestQuery,
  readWindow,
  restFail,
  restOk,
} from '@kiln/domain';
import type pg from 'pg';
import { DataApiPools } from './data-api-pools.js';
import { connectErrorOf, restErrorOf } from './pg-rest-errors.js';
import { PgSchemaCache, type SchemaInfo } from './pg-schema-cache.js';
import { type CompiledStatement, unknownTable } from './rest-sql-compiler.js';
import { deleteStatement, insertStatement, rpcStatement, selectStatement, updateStatement } from './rest-statements.js';

/** The request roles of docs/databases.md; nothing else is ever put after SET LOCAL ROLE. */
export type RequestRole = 'anon' | 'authenticated';

export type DataRequest =
  | { readonly kind: 'read'; readonly table: string; readonly query: RestQuery; readonly range: RowRange | null; readonly head: boolean }
  | { readonly kind: 'insert'; readonly table: string; readonly query: RestQuery; readonly body: unknown }
  | { readonly kind: 'update'; readonly table: string; readonly query: RestQuery; readonly body: unknown }
  | { readonly kind: 'delete'; readonly table: string; readonly query: RestQuery }
  | {
      readonly kind: 'rpc';
      readonly fn: string;
      /** The body's named arguments (POST); null: they are in the query string (GET, HEAD). */
      readonly args: Record<string, unknown> | null;
      /** The query string: select, filters, order, window (and with GET the arguments). */
      readonly pairs: readonly (readonly [string, string])[];
      readonly range: RowRange | null;
      readonly head: boolean;
    };

export interface DataAnswer {
  /** JSON text, or null for no body. */
  readonly body: string | null;
  /** Rows read, changed or returned. */
  readonly rows: number;
  /** `count=` asked: all matching rows. */
  readonly total: number | null;
  readonly offset: number;
  /** The body is a list of rows (a read, a change, a set-returning function): `.single()` applies to it. */
  readonly list: boolean;
}

/** SQL inside PgDataApi.transaction: rows of one statement with $n parameters. */
export interface RoleSql {
  query<R extends object>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

/** How one request runs: `readOnly` (an rpc past the size quota) makes any write of it fail with 25006. */
export interface RunOptions {
  readonly readOnly?: boolean;
}

export interface DataApiOptions {
  /** Per statement, on top of the authenticator role's own setting. */
  readonly statementTimeoutMs: number;
}

/**
 * Runs data API requests against project databases: one pooled connection of the project's
 * authenticator role per request, one transaction, `SET LOCAL ROLE anon|authenticated`, the JWT
 * claims in `request.jwt.claims`, one statement — so the project's row-level security decides.
 */
export class PgDataApi {
  private readonly pools = new DataApiPools();
  readonly schemas = new PgSchemaCache();

  constructor(private readonly options: DataApiOptions = { statementTimeoutMs: 8000 }) {}

  async run(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, request: DataRequest, prefer: Prefer, options: RunOptions = {}): Promise<RestResult<DataAnswer>> {
    let pool: pg.Pool;
    try {
      pool = await this.pools.get(target);
    } catch (error) {
      // Opening the pool reads the role's limit on a connection of its own: 53300 is "busy" too.
      return { ok: false, error: connectErrorOf(error) };
    }
    let schema: SchemaInfo;
    try {
      schema = await this.schemas.get(target.ref, pool);
    } catch (error) {
      return { ok: false, error: restErrorOf(error, role === 'anon') };
    }
    let compiled = compile(schema, request, prefer);
    if (!compiled.ok && ['PGRST205', '42703', 'PGRST200', 'PGRST202'].includes(compiled.error.code)) {
      // Maybe a migration just added it.
      const fresh = await this.schemas.refreshIfStale(target.ref, pool, schema).catch(() => schema);
      if (fresh !== schema) compiled = compile(fresh, request, prefer);
    }
    if (!compiled.ok) return compiled;
    const mutation = request.kind === 'insert' || request.kind === 'update' || request.kind === 'delete';
    // An rpc by GET or HEAD runs READ ONLY, as PostgREST's: a link or a prefetch never writes.
    const readOnly = options.readOnly === true || (request.kind === 'rpc' && request.args === null);
    const answer = await this.execute(target, pool, role, claims, compiled.value.statement, request.kind, { offset: compiled.value.offset, readOnly });
    if (!answer.ok) return answer;
    // A counted change (`delete({ count: 'exact' })`): the count is the rows it changed, as PostgREST's Content-Range says.
    const total = mutation && prefer.count !== null ? answer.value.rows : answer.value.total;
    return restOk({ ...answer.value, total, list: compiled.value.list });
  }

  private async execute(
    target: DataApiTarget,
    pool: pg.Pool,
    role: RequestRole,
    claims: Record<string, unknown>,
    statement: CompiledStatement,
    kind: DataRequest['kind'],
    { offset, readOnly: askedReadOnly }: { offset: number; readOnly: boolean },
  ): Promise<RestResult<Omit<DataAnswer, 'list'>>> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      return { ok: false, error: connectErrorOf(error) };
    }
    const mutation = kind === 'insert' || kind === 'update' || kind === 'delete';
    // A table read runs READ ONLY (as PostgREST's GET): whatever a policy calls, it writes nothing.
    // So does an rpc by GET, or past the size quota: READ ONLY is fixed before the first query, so
    // SQL of the project cannot turn it back (its write is 25006, its attempt to switch 25001).
    const readOnly = kind === 'read' || askedReadOnly;
    // The pool's clients pipeline (DataApiPools): the set-up, the statement and — unless the answer
    // must be seen first (a mutation past the row cap is rolled back) — the COMMIT are written at
    // once and answered in one round trip. If the set-up fails, the transaction is aborted and the
    // statement behind it fails too (25P02): it never runs without its role and claims.
    // Corked, the queries leave in one write: on a busy machine each write to the server's socket
    // can hand the CPU to its backend before the next is written.
    const socket = streamOf(client);
    const queries: Promise<unknown>[] = [];
    socket?.cork();
    try {
      queries.push(client.query(setupSql(client, role, claims, this.options.statementTimeoutMs, readOnly)));
      queries.push(client.query<{ body: string | null; n: number; total?: string }>(statement.sql, statement.params));
      if (!mutation) queries.push(client.query('COMMIT'));
    } finally {
      socket?.uncork();
    }
    let ended = false;
    let broken = false;
    try {
      const settled = await Promise.allSettled(queries);
      const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      // A pipelined COMMIT after a failed statement rolls back (and answers): the transaction is over.
      ended = !mutation && settled[2]?.status === 'fulfilled';
      if (failed !== undefined) throw failed.reason;
      const result = (settled[1] as PromiseFulfilledResult<pg.QueryResult<{ body: string | null; n: number; total?: string }>>).value;
      const row = result.rows[0] ?? { body: null, n: 0 };
      if (mutation) {
        if (row.n > REST_LIMITS.maxRows) {
          await client.query('ROLLBACK');
          ended = true;
          return restFail(400, 'PGRST124', `The request would change ${row.n} rows, more than ${REST_LIMITS.maxRows}: nothing was changed`, null, 'Narrow the filters and repeat.');
        }
        // A deferred constraint can still fail here: the answer waits for it.
        await client.query('COMMIT');
        ended = true;
      }
      return restOk({ body: row.body, rows: row.n, total: row.total === undefined ? null : Number(row.total), offset });
    } catch (error) {
      if (!ended) broken = await client.query('ROLLBACK').then(() => false, () => true);
      const mapped: RestError = restErrorOf(error, role === 'anon');
      if (['42P01', '42703', '42883'].includes(mapped.code)) this.schemas.invalidate(target.ref);
      return { ok: false, error: mapped };
    } finally {
      client.release(broken);
    }
  }

  /**
   * Runs `work` in one transaction of the project's authenticator as `role` with `claims` (the
   * same set-up as a /rest/v1 request, so row-level security decides): committed when it
   * returns, rolled back when it throws. Storage's metadata goes through it. Rejects with the
   * connection's error when the database cannot be reached (isDatabaseUnavailable, 53300).
   */
  transaction<T>(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, work: (sql: RoleSql) => Promise<T>): Promise<T> {
    return this.asRole(target, role, claims, false, work);
  }

  /**
   * Runs one read-only statement as `role` with `claims`, exactly as a data request would (the
   * project's pool, SET LOCAL ROLE, request.jwt.claims): realtime re-reads a changed row with it,
   * so row-level security decides what a subscriber receives. Throws what pg throws.
   */
  readAs<Row extends Record<string, unknown>>(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, sql: string, params: readonly unknown[]): Promise<Row[]> {
    return this.asRole(target, role, claims, true, (q) => q.query<Row>(sql, params));
  }

  private async asRole<T>(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, readOnly: boolean, work: (sql: RoleSql) => Promise<T>): Promise<T> {
    const pool = await this.pools.get(target);
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query(setupSql(client, role, claims, this.options.statementTimeoutMs, readOnly));
      const value = await work({ query: async <R extends object>(text: string, params: readonly unknown[] = []) => (await client.query(text, params as unknown[])).rows as R[] });
      await client.query('COMMIT');
      return value;
    } catch (error) {
      broken = await client.query('ROLLBACK').then(() => false, () => true);
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Whether a project has a pool here (what `forget` would end). */
  knows(ref: string): boolean {
    return this.pools.has(ref);
  }

  /** Drops a project's pool and schema (its database was detached, deleted, or its password rotated). */
  async forget(ref: string): Promise<void> {
    this.schemas.invalidate(ref);
    await this.pools.forget(ref);
  }

  async close(): Promise<void> {
    await this.pools.close();
  }
}

/** The socket of a pg client (not in pg's types; absent in another implementation: then not corked). */
function streamOf(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function' ? (stream as { cork(): void; uncork(): void }) : undefined;
}

/**
 * The transaction's set-up in one simple query (which takes no parameters): the role — one of two
 * fixed words —, the timeout — an integer —, and the JWT claims as a quoted literal (pg's
 * escapeLiteral: quotes doubled, backslashes as E'…'). The claims' JSON is pure ASCII (other
 * characters as \uXXXX, the same JSON value), so the literal reads the same in any client encoding
 * a project's own SQL might have set on the pooled session (SJIS and the like can hide a backslash
 * in a multibyte character).
 */
export function setupSql(client: Pick<pg.ClientBase, 'escapeLiteral'>, role: RequestRole, claims: Record<string, unknown>, timeoutMs: number, readOnly: boolean): string {
  const roleName = role === 'authenticated' ? 'authenticated' : 'anon';
  const timeout = Math.max(1, Math.floor(timeoutMs));
  return (
    `BEGIN${readOnly ? ' READ ONLY' : ''}; SET LOCAL ROLE ${roleName}; SET LOCAL statement_timeout = ${timeout}; ` +
    `SELECT set_config('request.jwt.claims', ${client.escapeLiteral(asciiJson(claims))}, true)`
  );
}

function compile(schema: SchemaInfo, request: DataRequest, prefer: Prefer): RestResult<{ statement: CompiledStatement; offset: number; list: boolean }> {
  if (request.kind === 'rpc') {
    // GET: a key naming an argument of the function (any overload) is an argument, others filter its rows (PostgREST).
    // An unknown function: every key that is not reserved names an argument, for PGRST202's message.
    const overloads = schema.functions.get(request.fn);
    const argNames = new Set((overloads ?? []).flatMap((f) => f.args.map((a) => a.name)));
    const isArg = (key: string) => request.args === null && !(RESERVED_KEYS as readonly string[]).includes(key) && (overloads === undefined || argNames.has(key));
    const query = parseRestQuery(request.pairs.filter(([k]) => !isArg(k)));
    if (!query.ok) return query;
    const args = request.args ?? Object.fromEntries(request.pairs.filter(([k]) => isArg(k)));
    const window = readWindow(query.value, request.range);
    const windowed = query.value.limit !== null || query.value.offset !== null || request.range !== null;
    const rpc = rpcStatement(schema, request.fn, args, { query: query.value, window, windowed, prefer, head: request.head });
    return rpc.ok ? restOk({ statement: rpc.value, offset: window.offset, list: rpc.value.fn.returnsSet }) : rpc;
  }
  const table = schema.tables.get(request.table);
  if (table === undefined) return { ok: false, error: unknownTable(request.table) };
  let statement: RestResult<CompiledStatement>;
  let offset = 0;
  switch (request.kind) {
    case 'read': {
      const window = readWindow(request.query, request.range);
      offset = window.offset;
      statement = selectStatement(schema, table, request.query, window, prefer, request.head);
      break;
    }
    case 'insert':
      statement = insertStatement(schema, table, request.query, request.body, prefer);
      break;
    case 'update':
      statement = updateStatement(schema, table, request.query, request.body, prefer);
      break;
    case 'delete':
      statement = deleteStatement(schema, table, request.query, prefer);
  }
  return statement.ok ? restOk({ statement: statement.value, offset, list: true }) : statement;
}

/** JSON text with every character outside printable ASCII written as a \u escape. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
