import { describe, expect, it } from '@jest/globals';
import { type RestQuery, parsePrefer, parseRestQuery } from '@kiln/domain';
import fc from 'fast-check';
import type { SchemaInfo, TableInfo } from './pg-schema-cache.js';
import { deleteStatement, insertStatement, rpcStatement, selectStatement, updateStatement } from './rest-statements.js';

const table = (name: string, columns: string[], primaryKey: string[] = ['id']): TableInfo => ({ name, columns: new Map(columns.map((c) => [c, { type: 'text' }])), primaryKey });
const todos = table('todos', ['id', 'title', 'user_id', 'weird name']);
const profiles = table('profiles', ['id', 'name']);
const schema: SchemaInfo = {
  tables: new Map([
    ['todos', todos],
    ['profiles', profiles],
  ]),
  foreignKeys: [{ name: 'todos_user_id_fkey', table: 'todos', columns: ['user_id'], refTable: 'profiles', refColumns: ['id'] }],
  functions: new Map([
    ['add', [{ name: 'add', args: [{ name: 'a', type: 'integer', hasDefault: false }, { name: 'b', type: 'integer', hasDefault: true }], returnsSet: false, returns: 'scalar' as const, returnsTable: null }]],
    ['todos_of', [{ name: 'todos_of', args: [{ name: 'who', type: 'uuid', hasDefault: false }], returnsSet: true, returns: 'row' as const, returnsTable: 'todos' }]],
    ['pairs', [{ name: 'pairs', args: [], returnsSet: true, returns: 'row' as const, returnsTable: null }]],
  ]),
  loadedAt: 0,
};
const query = (q: string): RestQuery => {
  const parsed = parseRestQuery([...new URLSearchParams(q)]);
  if (!parsed.ok) throw new Error(parsed.error.details ?? parsed.error.message);
  return parsed.value;
};
const prefer = parsePrefer('return=representation,count=exact');

describe('REST statements', () => {
  it('puts every value in a parameter and every name in quotes', () => {
    const s = selectStatement(schema, todos, query(`select=id,t:title,"weird name",owner:profiles(name)&title=eq.x'--&id=in.(1,2)&or=(title.like.a*,id.is.null)&order=id.desc`), { offset: 0, limit: 10 }, prefer, false);
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    expect(s.value.sql).not.toContain("x'--");
    expect(s.value.params).toEqual(["x'--", ['1', '2'], 'a%', 10, 0]);
    expect(s.value.sql).toContain('t0."weird name" AS "weird name"');
    expect(s.value.sql).toContain('t1."id" = t0."user_id"');
    expect(s.value.sql).toContain('ORDER BY t0."id" DESC');
    expect(s.value.sql).toContain('(SELECT count(*) FROM public."todos" AS t0 WHERE');
  });

  it('refuses names the catalog does not have', () => {
    expect(selectStatement(schema, todos, query('select=password'), { offset: 0, limit: 1 }, prefer, false)).toMatchObject({ ok: false, error: { code: '42703', status: 400 } });
    expect(selectStatement(schema, todos, query('select=secrets(x)'), { offset: 0, limit: 1 }, prefer, false)).toMatchObject({ ok: false, error: { code: 'PGRST200' } });
    expect(insertStatement(schema, todos, query(''), { title: 'x', 'evil"; drop': 1 }, prefer)).toMatchObject({ ok: false, error: { code: '42703' } });
    expect(updateStatement(schema, todos, query('nope=eq.1'), { title: 'x' }, prefer)).toMatchObject({ ok: false, error: { code: '42703' } });
    expect(rpcStatement(schema, 'pg_sleep', { seconds: 1 })).toMatchObject({ ok: false, error: { code: 'PGRST202', status: 404 } });
    expect(rpcStatement(schema, 'add', { a: 1, c: 2 })).toMatchObject({ ok: false, error: { code: 'PGRST202' } });
  });

  it('upserts on the primary key or on_conflict', () => {
    const s = insertStatement(schema, todos, query('on_conflict=title'), [{ id: 1, title: 'a' }], parsePrefer('resolution=merge-duplicates'));
    expect(s.ok && s.value.sql).toContain('ON CONFLICT ("title") DO UPDATE SET "id" = EXCLUDED."id"');
    const d = insertStatement(schema, todos, query(''), [{ id: 1 }], parsePrefer('resolution=ignore-duplicates'));
    expect(d.ok && d.value.sql).toContain('ON CONFLICT ("id") DO NOTHING');
  });

  it('calls functions by name with typed parameters', () => {
    const s = rpcStatement(schema, 'add', { a: 1 });
    expect(s.ok && [s.value.sql, s.value.params]).toEqual(['SELECT to_json(public."add"("a" => $1::integer))::text AS body, 1 AS n', ['1']]);
  });

  const shape = (q: string, windowed = false, head = false) => ({ query: query(q), window: { offset: 0, limit: 1000 }, windowed, prefer: parsePrefer(''), head });

  it("reads a function's set of table rows like the table: select, filters and order over one call", () => {
    const s = rpcStatement(schema, 'todos_of', { who: 'u1' }, shape('select=title,owner:profiles(name)&title=eq.x&order=id.desc'));
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    expect(s.value.sql).toMatch(/^WITH t0 AS MATERIALIZED \(SELECT \* FROM public\."todos_of"\("who" => \$1::uuid\)\) SELECT /);
    expect(s.value.sql).toContain('FROM t0 AS t0 WHERE t0."title" = $2 ORDER BY t0."id" DESC LIMIT $3 OFFSET $4');
    expect(s.value.sql).toContain('t1."id" = t0."user_id"');
    expect(s.value.params).toEqual(['u1', 'x', 1000, 0]);
    const counted = rpcStatement(schema, 'todos_of', { who: 'u1' }, { ...shape(''), prefer: parsePrefer('count=exact') });
    expect(counted.ok && counted.value.sql).toContain('(SELECT count(*) FROM t0 AS t0 WHERE true)::bigint AS total');
    expect(rpcStatement(schema, 'todos_of', { who: 'u1' }, shape('password=eq.x'))).toMatchObject({ ok: false, error: { code: '42703' } });
  });

  it('refuses select, filters, order or a window on a function whose rows it does not know, instead of ignoring them', () => {
    for (const q of ['select=a', 'a=eq.1', 'order=a']) expect(rpcStatement(schema, 'pairs', {}, shape(q))).toMatchObject({ ok: false, error: { status: 400, code: 'PGRST100' } });
    expect(rpcStatement(schema, 'add', { a: 1 }, shape('', true))).toMatchObject({ ok: false, error: { status: 400, code: 'PGRST100' } });
    // Nothing asked (or only `*`): the call as before.
    const plain = rpcStatement(schema, 'add', { a: 1 }, shape('select=*'));
    expect(plain.ok && plain.value.sql).toBe('SELECT to_json(public."add"("a" => $1::integer))::text AS body, 1 AS n');
  });

  it('never puts a filter value into the SQL text', () => {
    fc.assert(
      fc.property(fc.string().map((v) => `\u0001${v}`).filter((v) => !/[",()]/.test(v)), (v) => {
        const q = parseRestQuery([['title', `eq.${v}`], ['id', `in.(${v})`]]);
        if (!q.ok) return;
        const s = deleteStatement(schema, todos, q.value, prefer);
        expect(s.ok && s.value.params).toEqual([v, [v]]);
        expect(s.ok && s.value.sql.includes(v)).toBe(false);
      }),
    );
  });
});
