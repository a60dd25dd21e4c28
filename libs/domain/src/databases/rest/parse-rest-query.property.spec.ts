import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { formatRestQuery } from './format-rest-query.js';
import { contentRange, parsePrefer, parseRange, readWindow } from './parse-rest-headers.js';
import { RESERVED_KEYS, parseRestQuery } from './parse-rest-query.js';
import { type Condition, REST_LIMITS, type RestQuery, type SelectItem } from './rest-query.js';

const parse = (query: string) =>
  parseRestQuery(query === '' ? [] : query.split('&').map((p) => { const i = p.indexOf('='); return [decodeURIComponent(p.slice(0, i)), decodeURIComponent(p.slice(i + 1))] as const; }));
const value = <T>(result: { ok: boolean; value?: T }) => {
  expect(result.ok).toBe(true);
  return result.value as T;
};

const reserved = new Set<string>([...RESERVED_KEYS, 'not', 'inner', 'left']);
const identifier = fc.oneof(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/), fc.stringMatching(/^[A-Za-z0-9_ $-]{1,20}$/)).filter((s) => !reserved.has(s) && s.trim() === s);
const text = fc.string({ maxLength: 30 });
const column = fc.record({ kind: fc.constant('column' as const), name: identifier, alias: fc.option(identifier), cast: fc.option(fc.constantFrom('text' as const, 'integer' as const, 'double precision' as const)) });
const inner = fc.oneof(column, fc.constant({ kind: 'star' as const }));
const selectItem: fc.Arbitrary<SelectItem> = fc.oneof(
  inner,
  fc.record({ kind: fc.constant('embed' as const), relation: identifier, alias: fc.option(identifier), hint: fc.option(identifier), inner: fc.boolean(), items: fc.array(inner, { minLength: 1, maxLength: 4 }) }),
);
const filter: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ kind: fc.constant('filter' as const), column: identifier, negated: fc.boolean(), op: fc.constantFrom('eq' as const, 'neq' as const, 'gt' as const, 'like' as const, 'ilike' as const), value: text }),
  fc.record({ kind: fc.constant('filter' as const), column: identifier, negated: fc.boolean(), op: fc.constant('in' as const), value: fc.array(text, { maxLength: 5 }) }),
  fc.record({ kind: fc.constant('filter' as const), column: identifier, negated: fc.boolean(), op: fc.constant('is' as const), value: fc.constantFrom('null' as const, 'true' as const, 'false' as const, 'unknown' as const) }),
);
const { condition } = fc.letrec<{ condition: Condition }>((tie) => ({
  condition: fc.oneof({ depthSize: 'small', maxDepth: 3 }, filter, fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), negated: fc.boolean(), items: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) })),
}));
const query: fc.Arbitrary<RestQuery> = fc.record({
  select: fc.option(fc.array(selectItem, { minLength: 1, maxLength: 5 })),
  filters: fc.array(condition, { maxLength: 4 }),
  order: fc.array(fc.record({ column: identifier, direction: fc.constantFrom('asc' as const, 'desc' as const), nulls: fc.constantFrom(null, 'first' as const, 'last' as const) }), { maxLength: 3 }),
  limit: fc.option(fc.nat(REST_LIMITS.maxRows)),
  offset: fc.option(fc.nat(1000)),
  onConflict: fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 })),
  columns: fc.option(fc.array(identifier, { minLength: 1, maxLength: 3 })),
});

describe('parseRestQuery (PostgREST grammar)', () => {
  it('reads what supabase-js sends', () => {
    const q = value(parse('select=id,title,author:users!author_id(name),done::text&done=eq.false&or=(title.ilike.*a*,and(id.gt.3,id.lt.9))&id=not.in.(1,"2,3")&order=id.desc.nullslast,title&limit=10&offset=5'));
    expect(q.select).toEqual([
      { kind: 'column', name: 'id', alias: null, cast: null },
      { kind: 'column', name: 'title', alias: null, cast: null },
      { kind: 'embed', relation: 'users', alias: 'author', hint: 'author_id', inner: false, items: [{ kind: 'column', name: 'name', alias: null, cast: null }] },
      { kind: 'column', name: 'done', alias: null, cast: 'text' },
    ]);
    expect(q.filters).toEqual([
      { kind: 'filter', column: 'done', negated: false, op: 'eq', value: 'false' },
      {
        kind: 'or',
        negated: false,
        items: [
          { kind: 'filter', column: 'title', negated: false, op: 'ilike', value: '*a*' },
          { kind: 'and', negated: false, items: [{ kind: 'filter', column: 'id', negated: false, op: 'gt', value: '3' }, { kind: 'filter', column: 'id', negated: false, op: 'lt', value: '9' }] },
        ],
      },
      { kind: 'filter', column: 'id', negated: true, op: 'in', value: ['1', '2,3'] },
    ]);
    expect(q.order).toEqual([{ column: 'id', direction: 'desc', nulls: 'last' }, { column: 'title', direction: 'asc', nulls: null }]);
    expect([q.limit, q.offset]).toEqual([10, 5]);
  });

  it('keeps a value with SQL in it as a plain value', () => {
    const q = value(parse(`title=eq.${encodeURIComponent("x'; DROP TABLE todos; --")}`));
    expect(q.filters).toEqual([{ kind: 'filter', column: 'title', negated: false, op: 'eq', value: "x'; DROP TABLE todos; --" }]);
  });

  it.each([
    ['a quote in a column name', 'ti"tle=eq.1'],
    ['a semicolon in a column name', 'title;drop=eq.1'],
    ['a quoted name with a quote inside', 'select="a""b"'],
    ['an unknown operator', 'title=sql.1'],
    ['a filter on an embedded relation', 'author.name=eq.x'],
    ['a nested embed', 'select=a(b(c))'],
    ['10,000 columns', `select=${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}`],
    ['deep or nesting', `or=(${'or('.repeat(50)}a.eq.1${')'.repeat(50)})`],
    ['a huge in list', `id=in.(${Array.from({ length: 5000 }, (_, i) => i).join(',')})`],
    ['an unbalanced logic tree', 'or=(a.eq.1'],
    ['a bad cast', 'select=id::pg_catalog.text'],
    ['a negative limit', 'limit=-1'],
  ])('refuses %s with PGRST100', (_, q) => {
    const result = parse(q);
    expect(result).toMatchObject({ ok: false, error: { status: 400, code: 'PGRST100' } });
  });

  it('refuses more than maxRows at once with 416 PGRST103', () => {
    expect(parse('limit=1000000000000')).toMatchObject({ ok: false, error: { status: 416, code: 'PGRST103' } });
    expect(parseRange('0-999999999999', 'items')).toMatchObject({ ok: false, error: { status: 416, code: 'PGRST103' } });
    expect(parseRange('9-3', undefined)).toMatchObject({ ok: false, error: { status: 416 } });
  });

  it('never throws, whatever the query string', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.oneof(fc.constantFrom(...RESERVED_KEYS), fc.string()), fc.string({ unit: 'binary' })), { maxLength: 6 }), (pairs) => {
      const result = parseRestQuery(pairs);
      expect(typeof result.ok).toBe('boolean');
    }));
  });

  it('never throws on grammar-shaped noise', () => {
    const noise = fc.array(fc.constantFrom('(', ')', ',', '"', '\\', '.', 'not', 'eq', 'in', 'or', 'and', 'a', '1', ':', '!', '::', '*'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(fc.constantFrom('select', 'or', 'and', 'a', 'order'), noise, (key, v) => {
      const result = parseRestQuery([[key, v]]);
      if (result.ok) expect(parseRestQuery(formatRestQuery(result.value))).toEqual(result);
    }));
  });

  it('round-trips every query it can express', () => {
    fc.assert(fc.property(query, (q) => {
      expect(parseRestQuery(formatRestQuery(q))).toEqual({ ok: true, value: q });
    }), { numRuns: 300 });
  });

  it('refuses whatever exceeds the limits', () => {
    fc.assert(fc.property(fc.integer({ min: REST_LIMITS.maxInList + 1, max: 3000 }), fc.integer({ min: REST_LIMITS.maxLogicDepth + 1, max: 200 }), (n, depth) => {
      expect(parse(`a=in.(${'x,'.repeat(n - 1)}x)`).ok).toBe(false);
      expect(parse(`or=(${'and('.repeat(depth)}a.eq.1${')'.repeat(depth)})`).ok).toBe(false);
      expect(parse(`select=${'a,'.repeat(REST_LIMITS.maxSelectItems + n - REST_LIMITS.maxInList)}a`).ok).toBe(false);
    }), { numRuns: 50 });
  });
});

describe('Prefer, Range and Content-Range', () => {
  it('reads the preferences supabase-js sends and ignores the others', () => {
    expect(parsePrefer('return=representation, count=exact,resolution=merge-duplicates,missing=default,tx=commit')).toEqual({ return: 'representation', count: 'exact', resolution: 'merge-duplicates', missing: 'default' });
    expect(parsePrefer(undefined)).toEqual({ return: null, count: null, resolution: null, missing: null });
  });

  it('combines limit, offset and Range, capped at maxRows', () => {
    const q = value(parse('limit=10&offset=20'));
    expect(readWindow(q, null)).toEqual({ offset: 20, limit: 10 });
    const none = value(parse(''));
    expect(readWindow(none, value(parseRange('5-9', 'items')))).toEqual({ offset: 5, limit: 5 });
    expect(readWindow(none, null)).toEqual({ offset: 0, limit: REST_LIMITS.maxRows });
    expect(contentRange(0, 10, 42)).toBe('0-9/42');
    expect(contentRange(0, 0, 0)).toBe('*/0');
    expect(contentRange(5, 2, null)).toBe('5-6/*');
  });
});
