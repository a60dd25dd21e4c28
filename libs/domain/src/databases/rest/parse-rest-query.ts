import {
  CASTS,
  type Cast,
  type ColumnItem,
  type Condition,
  FILTER_OPERATORS,
  type FilterOperator,
  IS_VALUES,
  type IsValue,
  type OrderTerm,
  REST_LIMITS,
  type RestQuery,
  type RestResult,
  type SelectItem,
  type StarItem,
  restFail,
  restOk,
  parseError,
} from './rest-query.js';
import { parenthesisDepth, readIdentifier, readListValue, splitTopLevel } from './rest-syntax.js';

/** Query-string keys with a meaning of their own; every other key is a filter on a column. */
export const RESERVED_KEYS = ['select', 'order', 'limit', 'offset', 'on_conflict', 'columns', 'or', 'and', 'not.or', 'not.and'] as const;

const IDENT = String.raw`(?:[A-Za-z_][A-Za-z0-9_]*|"[^"]*")`;
const COLUMN_ITEM = new RegExp(String.raw`^(?:(${IDENT}):)?(${IDENT})(?:::([a-z ]+))?$`);
const EMBED_ITEM = new RegExp(String.raw`^(?:(${IDENT}):)?(${IDENT})((?:!${IDENT})*)\(([\s\S]*)\)$`);
const LOGIC_ITEM = /^(not\.)?(and|or)\(([\s\S]*)\)$/;
const INTEGER = /^\d{1,15}$/;

/**
 * Parses the decoded query-string pairs of a `/rest/v1/{table}` request. Never throws: anything
 * it cannot read, or that exceeds REST_LIMITS, is an error in PostgREST's shape.
 */
export function parseRestQuery(pairs: readonly (readonly [string, string])[]): RestResult<RestQuery> {
  let select: SelectItem[] | null = null;
  const filters: Condition[] = [];
  let order: OrderTerm[] = [];
  let limit: number | null = null;
  let offset: number | null = null;
  let onConflict: string[] | null = null;
  let columns: string[] | null = null;
  const seen = new Set<string>();
  const budget = { conditions: 0 };
  for (const [key, value] of pairs) {
    if (['select', 'order', 'limit', 'offset', 'on_conflict', 'columns'].includes(key)) {
      if (seen.has(key)) return parseError(`"${key}" given more than once`);
      seen.add(key);
    }
    if (value.length > REST_LIMITS.maxValueLength * 4) return parseError(`"${key}" is too long`);
    let step: RestResult<unknown>;
    switch (key) {
      case 'select':
        step = parseSelect(value);
        if (step.ok) select = step.value as SelectItem[];
        break;
      case 'order':
        step = parseOrder(value);
        if (step.ok) order = step.value as OrderTerm[];
        break;
      case 'limit':
      case 'offset': {
        step = parseCount(key, value);
        if (step.ok && key === 'limit') limit = step.value as number;
        if (step.ok && key === 'offset') offset = step.value as number;
        break;
      }
      case 'on_conflict':
      case 'columns':
        step = parseColumnList(key, value);
        if (step.ok && key === 'on_conflict') onConflict = step.value as string[];
        if (step.ok && key === 'columns') columns = step.value as string[];
        break;
      case 'or':
      case 'and':
      case 'not.or':
      case 'not.and':
        step = parseLogicTree(key.replace('not.', ''), key.startsWith('not.'), value, budget);
        if (step.ok) filters.push(step.value as Condition);
        break;
      default:
        step = parseColumnFilter(key, value, budget);
        if (step.ok) filters.push(step.value as Condition);
    }
    if (!step.ok) return step as RestResult<never>;
  }
  return restOk({ select, filters, order, limit, offset, onConflict, columns });
}

function parseCount(key: string, value: string): RestResult<number> {
  if (!INTEGER.test(value)) return parseError(`"${key}" must be a non-negative integer`, `got "${value.slice(0, 40)}"`);
  const n = Number(value);
  if (key === 'limit' && n > REST_LIMITS.maxRows) return rangeError(`at most ${REST_LIMITS.maxRows} rows may be asked for at once`);
  if (key === 'offset' && n > REST_LIMITS.maxOffset) return rangeError(`offset is above ${REST_LIMITS.maxOffset}`);
  return restOk(n);
}

export const rangeError = <T = never>(details: string): RestResult<T> => restFail(416, 'PGRST103', 'Requested range not satisfiable', details);

function parseColumnList(key: string, value: string): RestResult<string[]> {
  const parts = value.split(',');
  if (parts.length > REST_LIMITS.maxColumnList) return parseError(`"${key}" names too many columns`);
  const names: string[] = [];
  for (const part of parts) {
    const name = readIdentifier(part);
    if (name === null) return parseError(`failed to parse ${key}`, `"${part.slice(0, 70)}" is not a column name`);
    names.push(name);
  }
  return restOk(names);
}

// ——— select ———

export function parseSelect(value: string): RestResult<SelectItem[]> {
  const items: SelectItem[] = [];
  const count = { n: 0 };
  const step = parseSelectList(value, 0, items, count);
  return step.ok ? restOk(items) : step;
}

function parseSelectList(value: string, level: number, into: SelectItem[], count: { n: number }): RestResult<true> {
  if (parenthesisDepth(value) > 1 - level) return parseError('failed to parse select parameter', 'only one level of embedded relations is supported');
  const parts = splitTopLevel(value);
  if (parts === null) return parseError('failed to parse select parameter', 'unbalanced parentheses or quotes');
  for (const raw of parts) {
    if (++count.n > REST_LIMITS.maxSelectItems) return parseError('failed to parse select parameter', `more than ${REST_LIMITS.maxSelectItems} items`);
    const part = raw.trim();
    if (part === '*') {
      into.push({ kind: 'star' });
      continue;
    }
    const column = COLUMN_ITEM.exec(part);
    if (column !== null) {
      const item = columnItem(column[1], column[2] as string, column[3]);
      if (!item.ok) return item;
      into.push(item.value);
      continue;
    }
    const embed = level === 0 ? EMBED_ITEM.exec(part) : null;
    if (embed === null) return parseError('failed to parse select parameter', `unexpected "${part.slice(0, 70)}"`);
    const alias = embed[1] === undefined ? null : readIdentifier(embed[1]);
    const relation = readIdentifier(embed[2] as string);
    if (relation === null || (embed[1] !== undefined && alias === null)) return parseError('failed to parse select parameter', `bad relation name in "${part.slice(0, 70)}"`);
    let hint: string | null = null;
    let inner = false;
    for (const token of (embed[3] as string).split('!').slice(1)) {
      const name = readIdentifier(token);
      if (name === null) return parseError('failed to parse select parameter', `bad hint "${token.slice(0, 70)}"`);
      if (token === 'inner') inner = true;
      else if (token === 'left') continue;
      else if (hint !== null) return parseError('failed to parse select parameter', 'more than one relationship hint');
      else hint = name;
    }
    const inside: SelectItem[] = [];
    const step = parseSelectList(embed[4] as string, 1, inside, count);
    if (!step.ok) return step;
    into.push({ kind: 'embed', relation, alias, hint, inner, items: inside as (ColumnItem | StarItem)[] });
  }
  return restOk(true);
}

function columnItem(aliasToken: string | undefined, nameToken: string, castToken: string | undefined): RestResult<ColumnItem> {
  const name = readIdentifier(nameToken);
  const alias = aliasToken === undefined ? null : readIdentifier(aliasToken);
  if (name === null || (aliasToken !== undefined && alias === null)) return parseError('failed to parse select parameter', `bad column name "${nameToken.slice(0, 70)}"`);
  let cast: Cast | null = null;
  if (castToken !== undefined) {
    cast = CASTS.find((c) => c === castToken) ?? null;
    if (cast === null) return parseError('failed to parse select parameter', `cannot cast to "${castToken.slice(0, 40)}"`, );
  }
  return restOk({ kind: 'column', name, alias, cast });
}

// ——— order ———

function parseOrder(value: string): RestResult<OrderTerm[]> {
  const parts = value.split(',');
  if (parts.length > REST_LIMITS.maxOrderTerms) return parseError('failed to parse order', `more than ${REST_LIMITS.maxOrderTerms} terms`);
  const terms: OrderTerm[] = [];
  for (const part of parts) {
    const m = /^((?:[A-Za-z_][A-Za-z0-9_]*|"[^".]*"))(?:\.(asc|desc))?(?:\.(nullsfirst|nullslast))?$/.exec(part);
    const column = m === null ? null : readIdentifier(m[1] as string);
    if (m === null || column === null) return parseError('failed to parse order', `unexpected "${part.slice(0, 70)}"`);
    terms.push({ column, direction: m[2] === 'desc' ? 'desc' : 'asc', nulls: m[3] === undefined ? null : m[3] === 'nullsfirst' ? 'first' : 'last' });
  }
  return restOk(terms);
}

// ——— filters ———

function parseColumnFilter(key: string, value: string, budget: { conditions: number }): RestResult<Condition> {
  const column = readIdentifier(key);
  if (column === null) {
    if (key.includes('.')) return parseError('failed to parse filter', `filters on embedded relations ("${key.slice(0, 70)}") are not supported`);
    return parseError('failed to parse filter', `"${key.slice(0, 70)}" is not a column name`);
  }
  if (++budget.conditions > REST_LIMITS.maxConditions) return parseError('failed to parse filter', `more than ${REST_LIMITS.maxConditions} conditions`);
  return parseOperation(column, value, false);
}

/** `[not.]op.value` after a column; in a logic tree values may be quoted. */
function parseOperation(column: string, text: string, inTree: boolean): RestResult<Condition> {
  let rest = text;
  let negated = false;
  if (rest.startsWith('not.')) {
    negated = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const opName = dot < 0 ? rest : rest.slice(0, dot);
  const op = FILTER_OPERATORS.find((o) => o === opName);
  if (op === undefined || dot < 0) return parseError('failed to parse filter', `unknown operator "${opName.slice(0, 40)}" (${column})`);
  const raw = rest.slice(dot + 1);
  if (raw.length > REST_LIMITS.maxValueLength && op !== 'in') return parseError('failed to parse filter', `value of ${column} is too long`);
  if (op === 'in') {
    const list = parseInList(raw);
    return list.ok ? restOk({ kind: 'filter', column, negated, op, value: list.value }) : list;
  }
  if (op === 'is') {
    const is = IS_VALUES.find((v) => v === raw.toLowerCase());
    return is === undefined ? parseError('failed to parse filter', `"is" takes null, true, false or unknown (${column})`) : restOk({ kind: 'filter', column, negated, op, value: is as IsValue });
  }
  const plain = inTree ? readListValue(raw) : raw;
  if (plain === null) return parseError('failed to parse logic tree', `bad value for ${column}: quote values with "," "(" ")" or '"'`);
  return restOk({ kind: 'filter', column, negated, op: op as Exclude<FilterOperator, 'in' | 'is'>, value: plain });
}

function parseInList(raw: string): RestResult<string[]> {
  if (!raw.startsWith('(') || !raw.endsWith(')')) return parseError('failed to parse filter', '"in" takes a list in parentheses: in.(a,b)');
  const body = raw.slice(1, -1);
  if (body === '') return restOk([]);
  const parts = splitTopLevel(body);
  if (parts === null) return parseError('failed to parse filter', 'unbalanced quotes in the "in" list');
  if (parts.length > REST_LIMITS.maxInList) return parseError('failed to parse filter', `an "in" list takes at most ${REST_LIMITS.maxInList} values`);
  const values: string[] = [];
  for (const part of parts) {
    const value = readListValue(part);
    if (value === null || value.length > REST_LIMITS.maxValueLength) return parseError('failed to parse filter', `bad value in the "in" list: ${part.slice(0, 40)}`);
    values.push(value);
  }
  return restOk(values);
}

function parseLogicTree(kind: string, negated: boolean, value: string, budget: { conditions: number }): RestResult<Condition> {
  // Checked before recursing, so that `or=(or(or(…` costs one scan.
  if (parenthesisDepth(value) > REST_LIMITS.maxLogicDepth + 1) return parseError('failed to parse logic tree', `nested deeper than ${REST_LIMITS.maxLogicDepth}`);
  if (!value.startsWith('(') || !value.endsWith(')')) return parseError('failed to parse logic tree', `${kind} takes a list in parentheses: ${kind}=(a.eq.1,b.eq.2)`);
  return logicTree(kind as 'and' | 'or', negated, value.slice(1, -1), budget);
}

function logicTree(kind: 'and' | 'or', negated: boolean, body: string, budget: { conditions: number }): RestResult<Condition> {
  if (++budget.conditions > REST_LIMITS.maxConditions) return parseError('failed to parse logic tree', `more than ${REST_LIMITS.maxConditions} conditions`);
  const parts = splitTopLevel(body);
  if (parts === null) return parseError('failed to parse logic tree', 'unbalanced parentheses or quotes');
  const items: Condition[] = [];
  for (const part of parts) {
    const nested = LOGIC_ITEM.exec(part);
    if (nested !== null) {
      const tree = logicTree(nested[2] as 'and' | 'or', nested[1] !== undefined, nested[3] as string, budget);
      if (!tree.ok) return tree;
      items.push(tree.value);
      continue;
    }
    if (++budget.conditions > REST_LIMITS.maxConditions) return parseError('failed to parse logic tree', `more than ${REST_LIMITS.maxConditions} conditions`);
    const m = /^([A-Za-z_][A-Za-z0-9_]*|"[^"]*")\.([\s\S]*)$/.exec(part);
    const column = m === null ? null : readIdentifier(m[1] as string);
    if (m === null || column === null) return parseError('failed to parse logic tree', `unexpected "${part.slice(0, 70)}"`);
    const filter = parseOperation(column, m[2] as string, true);
    if (!filter.ok) return filter;
    items.push(filter.value);
  }
  return restOk({ kind, negated, items });
}
