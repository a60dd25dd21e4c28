import type pg from 'pg';

/** A table (or view) of the project's `public` schema as pg_catalog describes it. */
export interface TableInfo {
  readonly name: string;
  readonly columns: ReadonlyMap<string, { readonly type: string }>;
  readonly primaryKey: readonly string[];
}

/** A single- or multi-column foreign key between two tables of `public`. */
export interface ForeignKey {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

export interface FunctionInfo {
  readonly name: string;
  readonly args: readonly { readonly name: string; readonly type: string; readonly hasDefault: boolean }[];
  readonly returnsSet: boolean;
  /** `void`, a scalar, or a row type (composite / table). */
  readonly returns: 'void' | 'scalar' | 'row';
  /** The table of `public` whose row type it returns (`setof public.todos`), else null. */
  readonly returnsTable: string | null;
}

export interface SchemaInfo {
  readonly tables: ReadonlyMap<string, TableInfo>;
  readonly foreignKeys: readonly ForeignKey[];
  readonly functions: ReadonlyMap<string, readonly FunctionInfo[]>;
  readonly loadedAt: number;
}

const TABLES_SQL = `
select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
       coalesce(a.attnum = any(pk.conkey), false) as pk
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  left join pg_constraint pk on pk.conrelid = c.oid and pk.contype = 'p'
 where c.relkind in ('r', 'v', 'm', 'p', 'f')
 order by c.relname, a.attnum`;

const FOREIGN_KEYS_SQL = `
select con.conname as name, c.relname as table, r.relname as ref_table,
       array(select a.attname from unnest(con.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i)::text[] as columns,
       array(select a.attname from unnest(con.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i)::text[] as ref_columns
  from pg_constraint con
  join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
  join pg_class r on r.oid = con.confrelid join pg_namespace rn on rn.oid = r.relnamespace and rn.nspname = 'public'
 where con.contype = 'f'`;

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as returns_set, p.pronargs as nargs, p.pronargdefaults as ndefaults,
       coalesce(p.proargnames, '{}') as arg_names,
       array(select format_type(t, null) from unnest(p.proargtypes) t) as arg_types,
       case when p.prorettype = 'void'::regtype then 'void'
            when t.typtype = 'c' or p.prorettype = 'record'::regtype then 'row' else 'scalar' end as returns,
       (select c.relname from pg_class c join pg_namespace cn on cn.oid = c.relnamespace and cn.nspname = 'public' where c.oid = t.typrelid) as returns_table
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace and n.nspname = 'public'
  join pg_type t on t.oid = p.prorettype
 where p.prokind = 'f' and p.proargmodes is null`;

/**
 * What the data API knows of each project's `public` schema, read from pg_catalog through the
 * project's own connection and kept per project. It is reloaded when a request names something it
 * does not know (at most once a second: a migration just ran) and on `invalidate` (migrations call
 * it after applying).
 */
export class PgSchemaCache {
  private readonly entries = new Map<string, Promise<SchemaInfo>>();

  constructor(private readonly now: () => number = Date.now) {}

  get(ref: string, pool: pg.Pool): Promise<SchemaInfo> {
    let entry = this.entries.get(ref);
    if (entry === undefined) {
      entry = load(pool, this.now());
      this.entries.set(ref, entry);
      entry.catch(() => this.entries.delete(ref));
    }
    return entry;
  }

  /** Reloads when the cached schema is older than a second (a request named something unknown). */
  async refreshIfStale(ref: string, pool: pg.Pool, current: SchemaInfo): Promise<SchemaInfo> {
    if (this.now() - current.loadedAt < 1000) return current;
    this.entries.delete(ref);
    return this.get(ref, pool);
  }

  invalidate(ref: string): void {
    this.entries.delete(ref);
  }
}

async function load(pool: pg.Pool, now: number): Promise<SchemaInfo> {
  // One connection, one round trip: the project's role may have no second connection to spare.
  const [tables, keys, functions] = (await pool.query(`${TABLES_SQL};\n${FOREIGN_KEYS_SQL};\n${FUNCTIONS_SQL}`)) as unknown as [pg.QueryResult, pg.QueryResult, pg.QueryResult];
  const byName = new Map<string, { name: string; columns: Map<string, { type: string }>; primaryKey: string[] }>();
  for (const row of tables.rows as { table: string; column: string; type: string; pk: boolean }[]) {
    let table = byName.get(row.table);
    if (table === undefined) byName.set(row.table, (table = { name: row.table, columns: new Map(), primaryKey: [] }));
    table.columns.set(row.column, { type: row.type });
    if (row.pk) table.primaryKey.push(row.column);
  }
  const fns = new Map<string, FunctionInfo[]>();
  for (const row of functions.rows as { name: string; returns_set: boolean; nargs: number; ndefaults: number; arg_names: string[]; arg_types: string[]; returns: FunctionInfo['returns']; returns_table: string | null }[]) {
    const args = row.arg_types.map((type, i) => ({ name: row.arg_names[i] ?? '', type, hasDefault: i >= row.nargs - row.ndefaults }));
    fns.set(row.name, [...(fns.get(row.name) ?? []), { name: row.name, args, returnsSet: row.returns_set, returns: row.returns, returnsTable: row.returns_table }]);
  }
  const foreignKeys = (keys.rows as { name: string; table: string; ref_table: string; columns: string[]; ref_columns: string[] }[]).map((k) => ({
    name: k.name,
    table: k.table,
    columns: k.columns,
    refTable: k.ref_table,
    refColumns: k.ref_columns,
  }));
  return { tables: byName, foreignKeys, functions: fns, loadedAt: now };
}
