import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { type TestProject, createTestProject, localFetch, serveDataApi, sign } from './testing/data-api-test-project.js';

// Hostile requests to the data API over HTTP: each is a 4xx in PostgREST's shape and changes nothing.
describe('data API against hostile input', () => {
  let project: TestProject;
  let served: Awaited<ReturnType<typeof serveDataApi>>;
  const keys: Record<string, string> = {};
  const alice = randomUUID();

  const fingerprint = async () =>
    (
      await project.admin.query(`select
        (select md5(coalesce(string_agg(t::text, '|' order by id), '')) from todos t) ||
        (select md5(coalesce(string_agg(s::text, '|' order by id), '')) from secrets s) ||
        (select md5(coalesce(string_agg(p::text, '|' order by id), '')) from profiles p) ||
        (select count(*) from pg_class where relnamespace = 'public'::regnamespace) as f`)
    ).rows[0].f as string;

  beforeAll(async () => {
    project = await createTestProject();
    served = await serveDataApi([project.target]);
    const { jwtSecret: secret, ref } = project.target;
    keys['anon'] = await sign(secret, { role: 'anon', ref, iss: 'kiln' }, null);
    keys['alice'] = await sign(secret, { role: 'authenticated', sub: alice, ref, aud: 'authenticated' });
    keys['otherSecret'] = await sign('another project secret, 32 bytes long!!', { role: 'authenticated', sub: alice, ref, aud: 'authenticated' });
    keys['otherRef'] = await sign(secret, { role: 'authenticated', sub: alice, ref: 'x'.repeat(20), aud: 'authenticated' });
    keys['expired'] = await sign(secret, { role: 'authenticated', sub: alice, ref, exp: Math.floor(Date.now() / 1000) - 60 }, null);
    keys['postgres'] = await sign(secret, { role: 'postgres', sub: alice, ref });
    keys['service'] = await sign(secret, { role: 'service_role', ref });
    keys['owner'] = await sign(secret, { role: `kiln_app_${ref}_owner`, ref });
    keys['noSub'] = await sign(secret, { role: 'authenticated', ref });
    const [header, payload] = keys['alice'].split('.');
    keys['algNone'] = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    keys['tampered'] = `${header}.${Buffer.from(JSON.stringify({ role: 'authenticated', sub: randomUUID(), ref })).toString('base64url')}.${keys['alice'].split('.')[2]}`;
    await project.admin.query(`insert into profiles values ($1, 'Alice')`, [alice]);
    await project.admin.query(`insert into todos (title, user_id, rank) values ('one', $1, 1), ('two', $1, 2)`, [alice]);
    await project.admin.query(`insert into secrets values (1, 'hidden')`);
  });

  afterAll(async () => {
    await served?.close();
    await project?.drop();
  });

  type Case = [name: string, method: string, path: string, status: number, options?: { apikey?: string; key?: string; bearer?: string | null; headers?: Record<string, string>; body?: string }];
  const many = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(',');
  const cases: Case[] = [
    ['SQL after an integer value', 'GET', `todos?id=eq.${encodeURIComponent('1;drop table todos')}`, 400],
    ['a tautology in an integer value', 'GET', `todos?id=eq.${encodeURIComponent("1' or '1'='1")}`, 400],
    ['SQL closing an in list', 'GET', `todos?id=in.${encodeURIComponent('(1);delete from todos;--)')}`, 400],
    ['SQL after a logic tree', 'GET', `todos?or=${encodeURIComponent('(id.eq.1);drop table todos')}`, 400],
    ['a union in a comparison', 'GET', `todos?rank=gt.${encodeURIComponent('1 union select * from secrets')}`, 400],
    ['SQL in select', 'GET', `todos?select=${encodeURIComponent('id;drop table todos')}`, 400],
    ['a semicolon in a quoted column', 'GET', `todos?select=${encodeURIComponent('"id;drop"')}`, 400],
    ['a quote in a filter column', 'GET', `todos?${encodeURIComponent('ti"tle')}=eq.x`, 400],
    ['an escaped quote in a quoted column', 'GET', `todos?${encodeURIComponent('"title"";--"')}=eq.x`, 400],
    ['a doubled quote in a selected column', 'GET', `todos?select=${encodeURIComponent('id,"ti""tle"')}`, 400],
    ['SQL in order', 'GET', `todos?order=${encodeURIComponent('title;drop table todos')}`, 400],
    ['a subquery in order', 'GET', `todos?order=${encodeURIComponent('title.desc,(select 1)')}`, 400],
    ['an unknown operator', 'GET', 'todos?title=sql.x', 400],
    ['an operator without a value', 'GET', 'todos?title=eq', 400],
    ['an unsupported operator', 'GET', 'todos?title=cs.%7Ba%7D', 400],
    ['an unknown negated operator', 'GET', 'todos?title=not.exec.x', 400],
    ['select with 10,000 columns', 'GET', `todos?select=${many(10_000, (i) => `c${i}`)}`, 414],
    ['select with 300 columns', 'GET', `todos?select=${many(300, () => 'id')}`, 400],
    ['deep or nesting', 'GET', `todos?or=(${'or('.repeat(100)}id.eq.1${')'.repeat(100)})`, 400],
    ['a huge in list', 'GET', `todos?id=in.(${many(1500, (i) => String(i % 10))})`, 400],
    ['a very long in list', 'GET', `todos?id=in.(${many(10_000, (i) => String(i))})`, 414],
    ['a Range of 10^12 rows', 'GET', 'todos', 416, { headers: { Range: '0-999999999999', 'Range-Unit': 'items' } }],
    ['a limit of 10^12', 'GET', 'todos?limit=1000000000000', 416],
    ['a huge offset', 'GET', 'todos?offset=99999999999', 416],
    ['a backwards Range', 'GET', 'todos', 416, { headers: { Range: '5-2' } }],
    ['rpc to pg_catalog.pg_sleep', 'POST', 'rpc/pg_catalog.pg_sleep', 404, { body: '{"seconds":5}' }],
    ['rpc to pg_sleep outside public', 'POST', 'rpc/pg_sleep', 404, { body: '{"seconds":5}' }],
    ['rpc to kiln.x', 'POST', 'rpc/kiln.x', 404, { body: '{}' }],
    ['rpc with an unknown argument', 'POST', 'rpc/add_numbers', 404, { body: '{"a":1,"c":2}' }],
    ['rpc with a bad argument value', 'POST', 'rpc/add_numbers', 400, { body: '{"a":"1; select pg_sleep(5)"}' }],
    ['rpc with a list body', 'POST', 'rpc/add_numbers', 400, { body: '[1,2]' }],
    ['update_many_records on pg_authid', 'POST', 'rpc/update_many_records', 404, { key: 'alice', body: '{"table_name":"pg_authid","records":[{"id":1}]}' }],
    ['update_many_records with SQL in the table name', 'POST', 'rpc/update_many_records', 404, { key: 'alice', body: '{"table_name":"todos; drop table todos","records":[]}' }],
    ['an unknown table', 'GET', 'nope', 404],
    ['a table of pg_catalog', 'GET', 'pg_catalog.pg_authid', 404],
    ['a table of kiln', 'GET', 'kiln.schema_migrations', 404],
    ['another schema by Accept-Profile', 'GET', 'pg_authid', 406, { headers: { 'Accept-Profile': 'pg_catalog' } }],
    ['another schema by Content-Profile', 'POST', 'todos', 406, { headers: { 'Content-Profile': 'auth' }, body: '{"title":"x"}' }],
    ['an encoded path climbing out', 'GET', 'todos%2F..%2Fsecrets', 404],
    ['a bad JSON body', 'POST', 'todos', 400, { key: 'alice', body: '{"title": ' }],
    ['a string body', 'POST', 'todos', 400, { key: 'alice', body: '"drop table todos"' }],
    ['an empty list body', 'POST', 'todos', 400, { key: 'alice', body: '[]' }],
    ['a body with an unknown column', 'POST', 'todos', 400, { key: 'alice', body: '{"title":"x","evil\\"; drop table todos; --":1}' }],
    ['an oversized body', 'POST', 'todos', 413, { key: 'alice', body: JSON.stringify([{ title: 'x'.repeat(2 * 1024 * 1024) }]) }],
    ['a list to PATCH', 'PATCH', 'todos?id=gt.0', 400, { key: 'alice', body: '[{"title":"x"}]' }],
    ['SQL in columns', 'POST', `todos?columns=${encodeURIComponent('title;drop table todos')}`, 400, { key: 'alice', body: '{"title":"x"}' }],
    ['an unknown on_conflict column', 'POST', 'todos?on_conflict=nope', 400, { key: 'alice', body: '{"title":"x"}', headers: { Prefer: 'resolution=merge-duplicates' } }],
    ['a nested embed', 'GET', 'todos?select=profiles(todos(title))', 400],
    ['an unknown relation', 'GET', 'todos?select=secrets(value)', 400],
    ['an unknown column', 'GET', 'todos?select=password', 400],
    ['a filter on an unknown column', 'GET', 'todos?password=eq.x', 400],
    ['a cast to a schema-qualified type', 'GET', `todos?select=${encodeURIComponent('id::pg_catalog.text')}`, 400],
    ['SQL after a cast', 'GET', `todos?select=${encodeURIComponent('id::text);drop table todos;--')}`, 400],
    ['PUT', 'PUT', 'todos', 405, { key: 'alice', body: '{"title":"x"}' }],
    ['a JWT of another secret', 'GET', 'todos', 401, { bearer: 'otherSecret' }],
    ['a JWT for another project', 'GET', 'todos', 401, { bearer: 'otherRef' }],
    ['an expired JWT', 'GET', 'todos', 401, { bearer: 'expired' }],
    ['role postgres', 'GET', 'todos', 401, { bearer: 'postgres' }],
    ['role service_role', 'DELETE', 'todos?id=gt.0', 401, { bearer: 'service' }],
    ["the project's owner role", 'DELETE', 'todos?id=gt.0', 401, { bearer: 'owner' }],
    ['authenticated without sub', 'GET', 'todos', 401, { bearer: 'noSub' }],
    ['alg none', 'DELETE', 'todos?id=gt.0', 401, { bearer: 'algNone' }],
    ['a tampered payload', 'DELETE', 'todos?id=gt.0', 401, { bearer: 'tampered' }],
    ['no apikey', 'GET', 'todos', 401, { apikey: '', bearer: null }],
    ['a garbage apikey', 'GET', 'todos', 401, { headers: { apikey: 'not-a-key' }, bearer: null }],
    ['service_role as apikey', 'DELETE', 'todos?id=gt.0', 401, { apikey: 'service', bearer: null }],
    ['Basic authorization', 'GET', 'todos', 401, { headers: { Authorization: 'Basic cG9zdGdyZXM6' } }],
    ['anon writing a table without a policy', 'POST', 'secrets', 401, { body: '{"id":2,"value":"x"}' }],
    ["alice writing a row as someone else", 'POST', 'todos', 403, { key: 'alice', body: JSON.stringify({ title: 'x', user_id: randomUUID() }) }],
  ];

  it('has at least 40 cases', () => expect(cases.length).toBeGreaterThanOrEqual(40));

  it.each(cases)('refuses %s', async (_, method, path, status, options = {}) => {
    const before = await fingerprint();
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    const apikey = options.apikey ?? 'anon';
    if (options.headers?.['apikey'] === undefined && apikey !== '') headers['apikey'] = keys[apikey] as string;
    const bearer = options.bearer === undefined ? options.key : options.bearer;
    if (bearer !== null && bearer !== undefined && bearer !== '' && headers['Authorization'] === undefined) headers['Authorization'] = `Bearer ${keys[bearer] as string}`;
    const res = await localFetch(`${served.urlOf(project.target.ref)}/rest/v1/${path}`, { method, headers, body: options.body });
    const body = (await res.json()) as Record<string, unknown>;
    const shape = { code: typeof body['code'], message: typeof body['message'], details: body['details'] === null ? 'null' : typeof body['details'], hint: body['hint'] === null ? 'null' : typeof body['hint'] };
    expect({ status: res.status, keys: Object.keys(body).sort(), code: shape.code, message: shape.message }).toEqual({ status, keys: ['code', 'details', 'hint', 'message'], code: 'string', message: 'string' });
    expect([['null', 'string'].includes(shape.details), ['null', 'string'].includes(shape.hint)]).toEqual([true, true]);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await fingerprint()).toBe(before);
  });

  it('keeps SQL in a text value a plain value', async () => {
    const res = await localFetch(`${served.urlOf(project.target.ref)}/rest/v1/todos?title=eq.${encodeURIComponent("x' or 1=1; drop table todos; --")}`, { headers: { apikey: keys['anon'] as string, Authorization: `Bearer ${keys['alice'] as string}` } });
    expect([res.status, await res.json()]).toEqual([200, []]);
    expect((await project.admin.query(`select count(*)::int as n from todos`)).rows[0].n).toBe(2);
  });

  it('answers a preflight from any origin with the headers supabase-js sends', async () => {
    const res = await localFetch(`${served.urlOf(project.target.ref)}/rest/v1/todos`, { method: 'OPTIONS', headers: { Origin: 'http://app.example', 'Access-Control-Request-Method': 'PATCH' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/apikey.*authorization.*x-client-info.*prefer.*range/);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Content-Range/);
  });

  it('refuses a change of more rows than the cap, changing nothing', async () => {
    await project.admin.query(`insert into todos (title, user_id) select 'bulk ' || i, $1 from generate_series(1, 1001) i`, [alice]);
    const before = await fingerprint();
    const res = await localFetch(`${served.urlOf(project.target.ref)}/rest/v1/todos?title=like.bulk*`, { method: 'PATCH', headers: { apikey: keys['anon'] as string, Authorization: `Bearer ${keys['alice'] as string}`, 'Content-Type': 'application/json' }, body: '{"done":true}' });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([400, 'PGRST124']);
    expect(await fingerprint()).toBe(before);
  });
});
