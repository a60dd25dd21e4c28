import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type SupabaseClient, createClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { type TestProject, createTestProject, localFetch, serveDataApi, sign } from './testing/data-api-test-project.js';

// The real supabase-js (2.109.0, with the ws transport Node 20 needs) against the data API over HTTP.
describe('data API with @supabase/supabase-js', () => {
  let project: TestProject;
  let served: Awaited<ReturnType<typeof serveDataApi>>;
  let anonKey: string;
  const alice = randomUUID();
  const bob = randomUUID();
  let asAlice: SupabaseClient;
  let asBob: SupabaseClient;
  let asAnon: SupabaseClient;

  const client = (token?: string) =>
    createClient(served.urlOf(project.target.ref), anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
      global: { fetch: localFetch, headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } },
    });

  beforeAll(async () => {
    project = await createTestProject();
    served = await serveDataApi([project.target]);
    const secret = project.target.jwtSecret;
    anonKey = await sign(secret, { role: 'anon', ref: project.target.ref, iss: 'kiln' }, null);
    asAnon = client();
    asAlice = client(await sign(secret, { role: 'authenticated', sub: alice, ref: project.target.ref, aud: 'authenticated' }));
    asBob = client(await sign(secret, { role: 'authenticated', sub: bob, ref: project.target.ref, aud: 'authenticated' }));
    expect((await asAlice.from('profiles').insert({ id: alice, name: 'Alice' })).error).toBeNull();
    expect((await asBob.from('profiles').insert({ id: bob, name: 'Bob' })).error).toBeNull();
  });

  afterAll(async () => {
    await served?.close();
    await project?.drop();
  });

  it('inserts one and many rows, returning them', async () => {
    const one = await asAlice.from('todos').insert({ title: 'milk' }).select('id,title,done').single();
    expect(one.error).toBeNull();
    expect(one.data).toMatchObject({ title: 'milk', done: false });
    const many = await asAlice.from('todos').insert([{ title: 'eggs', rank: 2 }, { title: 'bread', rank: 1, done: true }, { title: 'jam', rank: 3 }], { defaultToNull: false }).select();
    expect(many.error).toBeNull();
    expect(many.data?.map((t) => t.title)).toEqual(['eggs', 'bread', 'jam']);
    expect(many.data?.every((t) => t.user_id === alice)).toBe(true);
    expect((await asBob.from('todos').insert({ title: 'bob only' })).status).toBe(201);
  });

  it('selects with filters, order and range', async () => {
    const { data, error } = await asAlice.from('todos').select('title,rank').eq('done', false).not('rank', 'is', null).order('rank', { ascending: false }).range(0, 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'jam', rank: 3 }, { title: 'eggs', rank: 2 }]);
    const some = await asAlice.from('todos').select('title').in('title', ['milk', 'jam', 'nope']).order('title');
    expect(some.data).toEqual([{ title: 'jam' }, { title: 'milk' }]);
    const like = await asAlice.from('todos').select('t:title').or('title.ilike.*GG*,rank.eq.1').order('id');
    expect(like.data).toEqual([{ t: 'eggs' }, { t: 'bread' }]);
    const cmp = await asAlice.from('todos').select('title').gte('rank', 2).lt('rank', 3);
    expect(cmp.data).toEqual([{ title: 'eggs' }]);
    const neq = await asAlice.from('todos').select('title').neq('title', 'milk').like('title', '%a%').order('title');
    expect(neq.data).toEqual([{ title: 'bread' }, { title: 'jam' }]);
  });

  it('counts, also with HEAD', async () => {
    const counted = await asAlice.from('todos').select('*', { count: 'exact' }).limit(2);
    expect(counted.count).toBe(4);
    expect(counted.data).toHaveLength(2);
    const head = await asAlice.from('todos').select('*', { count: 'exact', head: true });
    expect(head.error).toBeNull();
    expect([head.count, head.data]).toEqual([4, null]);
  });

  it('updates and deletes what the filters name', async () => {
    const updated = await asAlice.from('todos').update({ done: true }).eq('title', 'milk').select('title,done');
    expect(updated.data).toEqual([{ title: 'milk', done: true }]);
    const deleted = await asAlice.from('todos').delete().eq('title', 'jam').select('title');
    expect(deleted.data).toEqual([{ title: 'jam' }]);
    const { rows } = await project.admin.query(`select title from todos where user_id = $1 order by title`, [alice]);
    expect(rows.map((r) => r.title)).toEqual(['bread', 'eggs', 'milk']);
  });

  it('counts the rows a change made when asked', async () => {
    const inserted = await asBob.from('todos').insert([{ title: 'c1' }, { title: 'c2' }], { count: 'exact' });
    expect([inserted.status, inserted.count]).toEqual([201, 2]);
    const updated = await asBob.from('todos').update({ rank: 7 }, { count: 'exact' }).like('title', 'c*');
    expect([updated.error, updated.count]).toEqual([null, 2]);
    const deleted = await asBob.from('todos').delete({ count: 'exact' }).like('title', 'c*').select('title');
    expect([deleted.count, deleted.data?.length]).toEqual([2, 2]);
    expect((await asBob.from('todos').delete({ count: 'exact' }).eq('title', 'none')).count).toBe(0);
  });

  it('upserts with merge-duplicates', async () => {
    const { rows } = await project.admin.query(`select id from todos where title = 'eggs'`);
    const id = Number(rows[0].id);
    const upserted = await asAlice.from('todos').upsert([{ id, title: 'brown eggs' }, { id: id + 1000, title: 'flour' }], { defaultToNull: false }).select('title');
    expect(upserted.error).toBeNull();
    expect(upserted.data?.map((t) => t.title).sort()).toEqual(['brown eggs', 'flour']);
    const ignored = await asAlice.from('todos').upsert({ id, title: 'ignored' }, { ignoreDuplicates: true }).select('title');
    expect(ignored.data).toEqual([]);
    expect((await project.admin.query(`select title from todos where id = $1`, [id])).rows[0].title).toBe('brown eggs');
  });

  it('embeds a related row and related lists', async () => {
    const toOne = await asAlice.from('todos').select('title,owner:profiles(name)').eq('title', 'milk').single();
    expect(toOne.error).toBeNull();
    expect(toOne.data).toEqual({ title: 'milk', owner: { name: 'Alice' } });
    const toMany = await asAlice.from('profiles').select('name,todos(title)').order('name');
    expect(toMany.data).toEqual([
      { name: 'Alice', todos: expect.arrayContaining([{ title: 'milk' }, { title: 'bread' }]) },
      { name: 'Bob', todos: [] },
    ]);
  });

  it('calls functions of public by name, and update_many_records', async () => {
    expect((await asAnon.rpc('add_numbers', { a: 2, b: 40 })).data).toBe(42);
    expect((await asAnon.rpc('add_numbers', { a: 2 })).data).toBe(2);
    const open = await asAlice.rpc('open_todos');
    expect((open.data as { title: string }[]).map((t) => t.title).sort()).toEqual(['brown eggs', 'flour']);
    const { rows } = await project.admin.query(`select id from todos where user_id = $1 and title in ('flour', 'bread') order by title`, [alice]);
    const many = await asAlice.rpc('update_many_records', { table_name: 'todos', records: rows.map((r) => ({ id: Number(r.id), rank: 9 })) });
    expect(many.error).toBeNull();
    expect(many.data).toBe(2);
    const bobsTry = await asBob.rpc('update_many_records', { table_name: 'todos', records: [{ id: Number(rows[0].id), title: 'hacked' }] });
    expect(bobsTry.error?.message).toMatch(/^Failed to update some records: /);
    expect((await project.admin.query(`select count(*)::int as n from todos where title = 'hacked'`)).rows[0].n).toBe(0);
  });

  it("selects, filters, orders and counts a set-returning function's rows, and refuses that on a scalar one", async () => {
    const some = await asAlice.rpc('open_todos').select('title').neq('title', 'nothing').order('title', { ascending: false });
    expect([some.error, some.data]).toEqual([null, [{ title: 'flour' }, { title: 'brown eggs' }]]);
    expect((await asAlice.rpc('open_todos').select('title').eq('title', 'flour')).data).toEqual([{ title: 'flour' }]);
    expect((await asAlice.rpc('open_todos').select('title').order('title').range(1, 1)).data).toEqual([{ title: 'flour' }]);
    expect((await asAlice.rpc('open_todos', {}, { get: true }).select('title,owner:profiles(name)').eq('title', 'flour')).data).toEqual([{ title: 'flour', owner: { name: 'Alice' } }]);
    const head = await asAlice.rpc('open_todos', {}, { head: true, count: 'exact' });
    expect([head.error, head.count, head.data]).toEqual([null, 2, null]);
    const scalar = await asAnon.rpc('add_numbers', { a: 1 }).eq('a', 1);
    expect([scalar.status, scalar.error?.code]).toEqual([400, 'PGRST100']);
  });

  it('keeps users to their own rows under owner policies', async () => {
    const bobSees = await asBob.from('todos').select('title');
    expect(bobSees.data).toEqual([{ title: 'bob only' }]);
    const bobChanges = await asBob.from('todos').update({ title: 'pwned' }).eq('user_id', alice).select();
    expect(bobChanges.data).toEqual([]);
    const bobDeletes = await asBob.from('todos').delete().neq('title', '').select();
    expect(bobDeletes.data).toEqual([{ id: expect.any(Number), title: 'bob only', done: false, user_id: bob, rank: null }]);
    const forged = await asBob.from('todos').insert({ title: 'as alice', user_id: alice });
    expect(forged.error?.code).toBe('42501');
    expect(forged.status).toBe(403);
    const { rows } = await project.admin.query(`select count(*)::int as n from todos where user_id = $1 and title not in ('pwned', 'as alice')`, [alice]);
    expect(rows[0].n).toBe(4);
  });

  it('shows anon nothing of a table without a policy', async () => {
    await project.admin.query(`insert into secrets values (1, 'hidden')`);
    const read = await asAnon.from('secrets').select('*');
    expect(read).toMatchObject({ data: [], error: null });
    expect((await asAlice.from('secrets').select('*')).data).toEqual([]);
    expect((await asAnon.from('todos').select('*')).data).toEqual([]);
    const write = await asAnon.from('secrets').insert({ id: 2, value: 'x' });
    expect(write.error?.code).toBe('42501');
    expect(write.status).toBe(401);
  });

  it('cancels a statement past its timeout (504, 57014)', async () => {
    const started = Date.now();
    const slow = await asAnon.rpc('slow');
    expect([slow.status, slow.error?.code]).toEqual([504, '57014']);
    expect(Date.now() - started).toBeLessThan(3900);
  });

  it('sees a table a migration just created', async () => {
    expect((await asAnon.from('notes').select('*')).error?.code).toBe('PGRST205');
    await project.admin.query(`set role kiln_app_${project.target.ref}_owner;
      create table notes (id int primary key, body text); alter table notes enable row level security;
      create policy notes_read on notes for select to anon using (true); grant select on notes to anon;
      insert into notes values (1, 'hello'); reset role`);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await asAnon.from('notes').select('body')).data).toEqual([{ body: 'hello' }]);
  });

  it('answers single() and maybeSingle() as PostgREST does', async () => {
    expect(await asAlice.from('todos').select('title').eq('title', 'nothing').maybeSingle()).toMatchObject({ data: null, error: null });
    expect((await asAlice.from('todos').select('title').eq('title', 'nothing').single()).error).toMatchObject({ code: 'PGRST116' });
    expect((await asAlice.from('todos').select('title').single()).status).toBe(406);
    expect((await asAlice.from('profiles').select('name').eq('id', alice).single()).data).toEqual({ name: 'Alice' });
    // The same on a set-returning function's rows; a scalar function's value stays as it is.
    expect((await asAlice.rpc('open_todos').select('title').eq('title', 'flour').single()).data).toEqual({ title: 'flour' });
    expect((await asAlice.rpc('open_todos').single()).error).toMatchObject({ code: 'PGRST116' });
    expect(await asAlice.rpc('open_todos').eq('title', 'nothing').maybeSingle()).toMatchObject({ data: null, error: null });
    expect((await asAnon.rpc('add_numbers', { a: 2, b: 3 }).single()).data).toBe(5);
  });

  it('answers 406 for a media type it does not produce (csv, GeoJSON, plans), instead of JSON', async () => {
    for (const reply of [await asAlice.from('todos').select('title').csv(), await asAlice.from('todos').select('title').geojson(), await asAlice.from('todos').select('title').explain()]) {
      expect([reply.status, reply.error?.code]).toEqual([406, 'PGRST107']);
    }
    const before = (await project.admin.query(`select count(*)::int as n from todos`)).rows[0].n;
    const insert = await asAlice.from('todos').insert({ title: 'never' }).select('title').csv();
    expect(insert.status).toBe(406);
    expect((await project.admin.query(`select count(*)::int as n from todos`)).rows[0].n).toBe(before);
  });
});
