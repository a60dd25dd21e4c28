import { type Condition, type EmbedItem, type RestError, type RestQuery, type RestResult, type SelectItem, restFail, restOk } from '@kiln/domain';
import type { ForeignKey, SchemaInfo, TableInfo } from './pg-schema-cache.js';

/** One parameterised statement; its result row has `body` (JSON text or null) and `n` (rows). */
export interface CompiledStatement {
  readonly sql: string;
  readonly params: unknown[];
}

/** pg's identifier quoting; names reaching here have also been checked against the catalog. */
export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

const COMPARISONS = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'LIKE', ilike: 'ILIKE' } as const;
const MAIN = 't0';

export const unknownTable = (name: string): RestError => ({
  status: 404,
  code: 'PGRST205',
  message: `Could not find the table 'public.${name.slice(0, 63)}' in the schema cache`,
  details: null,
  hint: null,
});
export const unknownColumn = (table: string, column: string): RestError => ({
  status: 400,
  code: '42703',
  message: `column ${table}.${column.slice(0, 63)} does not exist`,
  details: null,
  hint: null,
});

/** Builds statements for one table of one schema; `$n` parameters are appended to `params`. */
export class RestSqlCompiler {
  readonly params: unknown[] = [];

  constructor(
    private readonly schema: SchemaInfo,
    readonly table: TableInfo,
  ) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  column(table: TableInfo, name: string, alias = MAIN): RestResult<string> {
    return table.columns.has(name) ? restOk(`${alias}.${quoteIdent(name)}`) : { ok: false, error: unknownColumn(table.name, name) };
  }

  /** The select list over `t0` (defaults to every column), embeds as correlated subqueries. */
  selectList(items: readonly SelectItem[] | null): RestResult<{ list: string; innerJoins: string[] }> {
    const parts: string[] = [];
    const innerJoins: string[] = [];
    for (const item of items ?? [{ kind: 'star' } as const]) {
      if (item.kind === 'star') parts.push(`${MAIN}.*`);
      else if (item.kind === 'column') {
        const column = this.column(this.table, item.name);
        if (!column.ok) return column;
        parts.push(`${column.value}${item.cast === null ? '' : `::${item.cast}`} AS ${quoteIdent(item.alias ?? item.name)}`);
      } else {
        const embed = this.embed(item);
        if (!embed.ok) return embed;
        parts.push(`${embed.value.expression} AS ${quoteIdent(item.alias ?? item.relation)}`);
        if (item.inner) innerJoins.push(embed.value.exists);
      }
    }
    return restOk({ list: parts.join(', '), innerJoins });
  }

  private embed(item: EmbedItem): RestResult<{ expression: string; exists: string }> {
    const target = this.schema.tables.get(item.relation);
    if (target === undefined) return restFail(400, 'PGRST200', `Could not find a relationship between '${this.table.name}' and '${item.relation}' in the schema cache`);
    const candidates = this.schema.foreignKeys.filter(
      (fk) =>
        ((fk.table === this.table.name && fk.refTable === target.name) || (fk.table === target.name && fk.refTable === this.table.name)) &&
        (item.hint === null || fk.name === item.hint || (fk.columns.length === 1 && fk.columns[0] === item.hint)),
    );
    if (candidates.length === 0) return restFail(400, 'PGRST200', `Could not find a relationship between '${this.table.name}' and '${item.relation}' in the schema cache`);
    if (candidates.length > 1) {
      return restFail(300, 'PGRST201', `Could not embed because more than one relationship was found for '${this.table.name}' and '${item.relation}'`, candidates.map((c) => c.name).join(', '), 'Name one: relation!constraint_or_column(...)');
    }
    const fk = candidates[0] as ForeignKey;
    const toOne = fk.table === this.table.name && fk.refTable === target.name;
    const sub = 't1';
    const join = fk.columns
      .map((col, i) => {
        const ref = fk.refColumns[i] as string;
        return toOne ? `${sub}.${quoteIdent(ref)} = ${MAIN}.${quoteIdent(col)}` : `${sub}.${quoteIdent(col)} = ${MAIN}.${quoteIdent(ref)}`;
      })
      .join(' AND ');
    const parts: string[] = [];
    for (const inner of item.items) {
      if (inner.kind === 'star') parts.push(`${sub}.*`);
      else if (inner.kind === 'column') {
        const column = this.column(target, inner.name, sub);
        if (!column.ok) return column;
        parts.push(`${column.value}${inner.cast === null ? '' : `::${inner.cast}`} AS ${quoteIdent(inner.alias ?? inner.name)}`);
      }
    }
    const from = `FROM public.${quoteIdent(target.name)} AS ${sub} WHERE ${join}`;
    const rows = `SELECT ${parts.join(', ')} ${from}`;
    const expression = toOne ? `(SELECT row_to_json(e) FROM (${rows} LIMIT 1) AS e)` : `(SELECT coalesce(json_agg(e), '[]'::json) FROM (${rows}) AS e)`;
    return restOk({ expression, exists: `EXISTS (SELECT 1 ${from})` });
  }

  /** The filters ANDed ('true' when there are none). */
  where(filters: readonly Condition[], extra: readonly string[] = []): RestResult<string> {
    const parts: string[] = [...extra];
    for (const condition of filters) {
      const sql = this.condition(condition);
      if (!sql.ok) return sql;
      parts.push(sql.value);
    }
    return restOk(parts.length === 0 ? 'true' : parts.join(' AND '));
  }

  private condition(condition: Condition): RestResult<string> {
    if (condition.kind !== 'filter') {
      const items: string[] = [];
      for (const item of condition.items) {
        const sql = this.condition(item);
        if (!sql.ok) return sql;
        items.push(sql.value);
      }
      const joined = items.length === 0 ? (condition.kind === 'and' ? 'true' : 'false') : items.join(condition.kind === 'and' ? ' AND ' : ' OR ');
      return restOk(`${condition.negated ? 'NOT ' : ''}(${joined})`);
    }
    const column = this.column(this.table, condition.column);
    if (!column.ok) return column;
    let sql: string;
    if (condition.op === 'in') sql = `${column.value} = ANY(${this.param(condition.value)})`;
    else if (condition.op === 'is') sql = `${column.value} IS ${condition.value.toUpperCase()}`;
    else if (condition.op === 'like' || condition.op === 'ilike') sql = `${column.value}::text ${COMPARISONS[condition.op]} ${this.param(condition.value.replace(/\*/g, '%'))}`;
    else sql = `${column.value} ${COMPARISONS[condition.op]} ${this.param(condition.value)}`;
    return restOk(condition.negated ? `NOT (${sql})` : sql);
  }

  orderBy(query: RestQuery): RestResult<string> {
    const terms: string[] = [];
    for (const term of query.order) {
      const column = this.column(this.table, term.column);
      if (!column.ok) return column;
      terms.push(`${column.value} ${term.direction.toUpperCase()}${term.nulls === null ? '' : ` NULLS ${term.nulls.toUpperCase()}`}`);
    }
    return restOk(terms.length === 0 ? '' : ` ORDER BY ${terms.join(', ')}`);
  }
}
