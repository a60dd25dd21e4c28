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
import pg from 'pg';
import { ConnectionFailureMarkingPool } from '../postgres/database-unavailable.js';
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
  private readonly pools = new Map<string, pg.Pool>();
  readonly schemas = new PgSchemaCache();

  constructor(private readonly options: DataApiOptions = { statementTimeoutMs: 8000 }) {}

  async run(target: DataApiTarget, role: RequestRole, claims: Record<string, unknown>, request: DataRequest, prefer: Prefer, options: RunOptions = {}): Promise<RestResult<DataAnswer>> {
    const pool = this.poolFor(target);
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
    const answer = await this.execute(target, pool, role, claims, compiled.value.statement, { mutation, offset: compiled.value.offset, readOnly: options.readOnly === true });
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
    { mutation, offset, readOnly }: { mutation: boolean; offset: number; readOnly: boolean },
  ): Promise<RestResult<Omit<DataAnswer, 'list'>>> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      return { ok: false, error: connectErrorOf(error) };
    }
    let broken = false;
    try {
      const timeout = Math.max(1, Math.floor(this.options.statementTimeoutMs));
      // READ ONLY is fixed before the first query: SQL of the project cannot turn it back.
      await client.query(`BEGIN${readOnly ? ' READ ONLY' : ''}; SET LOCAL ROLE ${role === 'authenticated' ? 'authenticated' : 'anon'}; SET LOCAL statement_timeout = ${timeout}`);
      await client.query(`SELECT set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
      const result = await client.query<{ body: string | null; n: number; total?: string }>(statement.sql, statement.params);
      const row = result.rows[0] ?? { body: null, n: 0 };
      if (mutation && row.n > REST_LIMITS.maxRows) {
        await client.query('ROLLBACK');
        return restFail(400, 'PGRST124', `The request would change ${row.n} rows, more than ${REST_LIMITS.maxRows}: nothing was changed`, null, 'Narrow the filters and repeat.');
      }
      await client.query('COMMIT');
      return restOk({ body: row.body, rows: row.n, total: row.total === undefined ? null : Number(row.total), offset });
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      const mapped: RestError = restErrorOf(error, role === 'anon');
      if (['42P01', '42703', '42883'].includes(mapped.code)) this.schemas.invalidate(target.ref);
      return { ok: false, error: mapped };
    } finally {
      client.release(broken);
    }
  }

  private poolFor(target: DataApiTarget): pg.Pool {
    let pool = this.pools.get(target.ref);
    if (pool === undefined) {
      pool = new ConnectionFailureMarkingPool({ ...target.connection, max: Math.max(1, target.maxConnections), idleTimeoutMillis: 30_000, connectionTimeoutMillis: 5000 });
      pool.on('error', () => {}); // an idle client's socket closed: the pool replaces it
      this.pools.set(target.ref, pool);
    }
    return pool;
  }

  /** Drops a project's pool (its database was deleted or its password rotated). */
  async forget(ref: string): Promise<void> {
    const pool = this.pools.get(ref);
    this.pools.delete(ref);
    this.schemas.invalidate(ref);
    await pool?.end();
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((ref) => this.forget(ref)));
  }
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
