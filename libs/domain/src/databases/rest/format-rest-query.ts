import type { Condition, RestQuery, SelectItem } from './rest-query.js';
import { formatIdentifier, formatListValue } from './rest-syntax.js';

/** The query-string pairs that parse back to `query` (what supabase-js would send for it). */
export function formatRestQuery(query: RestQuery): [string, string][] {
  const pairs: [string, string][] = [];
  if (query.select !== null) pairs.push(['select', query.select.map(formatSelectItem).join(',')]);
  for (const condition of query.filters) {
    if (condition.kind === 'filter') pairs.push([formatIdentifier(condition.column), formatOperation(condition, false)]);
    else pairs.push([`${condition.negated ? 'not.' : ''}${condition.kind}`, `(${condition.items.map(formatTreeItem).join(',')})`]);
  }
  if (query.order.length > 0) {
    const terms = query.order.map((t) => `${formatIdentifier(t.column)}.${t.direction}${t.nulls === null ? '' : `.nulls${t.nulls}`}`);
    pairs.push(['order', terms.join(',')]);
  }
  if (query.limit !== null) pairs.push(['limit', String(query.limit)]);
  if (query.offset !== null) pairs.push(['offset', String(query.offset)]);
  if (query.onConflict !== null) pairs.push(['on_conflict', query.onConflict.map(formatIdentifier).join(',')]);
  if (query.columns !== null) pairs.push(['columns', query.columns.map(formatIdentifier).join(',')]);
  return pairs;
}

function formatSelectItem(item: SelectItem): string {
  if (item.kind === 'star') return '*';
  if (item.kind === 'column') return `${item.alias === null ? '' : `${formatIdentifier(item.alias)}:`}${formatIdentifier(item.name)}${item.cast === null ? '' : `::${item.cast}`}`;
  const hints = `${item.hint === null ? '' : `!${formatIdentifier(item.hint)}`}${item.inner ? '!inner' : ''}`;
  return `${item.alias === null ? '' : `${formatIdentifier(item.alias)}:`}${formatIdentifier(item.relation)}${hints}(${item.items.map(formatSelectItem).join(',')})`;
}

function formatOperation(filter: Condition & { kind: 'filter' }, inTree: boolean): string {
  const prefix = `${filter.negated ? 'not.' : ''}${filter.op}.`;
  if (filter.op === 'in') return `${prefix}(${filter.value.map(formatListValue).join(',')})`;
  if (filter.op === 'is') return `${prefix}${filter.value}`;
  return `${prefix}${inTree ? formatListValue(filter.value) : filter.value}`;
}

function formatTreeItem(condition: Condition): string {
  if (condition.kind === 'filter') return `${formatIdentifier(condition.column)}.${formatOperation(condition, true)}`;
  return `${condition.negated ? 'not.' : ''}${condition.kind}(${condition.items.map(formatTreeItem).join(',')})`;
}
