import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DataApiTarget, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { FixedClock, InMemoryObjectStore, SeededRandom } from '@kiln/domain/testing';
import { createClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import WebSocket from 'ws';
import { DataApiServer } from '../databases/data-api-server.js';
import { LocalPostgresProvisioner } from '../databases/local-postgres-provisioner.adapter.js';
import { PgDataApi } from '../databases/pg-data-api.js';
import { projectDatabaseSetup } from '../databases/project-database-sql.js';
import { DEFAULT_TEST_DATABASE_URL } from '../postgres/testing/test-database.js';
import { StorageService } from './storage-service.js';
import { loopbackBinaryFetch, rawRequest } from './testing/loopback-fetch.js';

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/**
 * Storage on the data origin against a project database made by the real provisioner (so its
 * `storage` schema is projectDatabaseSetup's), with supabase-js's storage client and raw requests:
 * metadata under row-level security, bytes in the ObjectStore, and what happens when either fails.
 */
describe('StorageService (local PostgreSQL, supabase-js storage)', () => {
  const ref = generateDatabaseRef(new SeededRandom(Date.now() % 1_000_000_007));
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const api = new PgDataApi({ statementTimeoutMs: 5000 });
  const store = new InMemoryObjectStore();
  const clock = new FixedClock(new Date());
  const jwtSecret = randomBytes(32).toString('hex');
  let quotaBytes = 10_000;
  let target: DataApiTarget;
  let server: http.Server;
  let port = 0;
  let anonKey: string;
  const alice = randomUUID();
  const bob = randomUUID();
  let aliceToken: string;
  let bobToken: string;

  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(Math.floor(clock.now().getTime() / 1000)).setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 3600).sign(new TextEncoder().encode(jwtSecret));
  const storageOf = (token?: string) =>
    createClient(`http://${ref}.data.localhost:${port}`, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
      global: { fetch: loopbackBinaryFetch, headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } },
    }).storage;
  const projectDb = async <T>(work: (c: pg.Client) => Promise<T>): Promise<T> => {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseNames(ref).database}`;
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    const connection = await provisioner.provision(ref, { sizeMb: 50, connections: 4, statementTimeoutMs: 5000 });
    target = { ref, ownerId: 'owner', connection, jwtSecret, maxConnections: 3 };
    const storage = new StorageService({
      targets: { findByRef: async (r) => (r === ref ? target : null) },
      db: api,
      objects: store,
      quotas: { limitsFor: async () => ({ quotaBytes }) },
      maxFileBytes: 4096,
      clock,
      newVersion: randomUUID,
      targetCacheMs: 0,
      log: () => undefined,
    });
    const origin = new DataApiServer('http://{ref}.data.localhost:{port}', { findByRef: async (r) => (r === ref ? target : null) }, api, [storage], () => undefined, undefined, 0);
    server = http.createServer((req, res) => (origin.matches(req) ? origin.handle(req, res) : (res.statusCode = 404, res.end())));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    anonKey = await sign({ role: 'anon', ref });
    aliceToken = await sign({ role: 'authenticated', sub: alice, ref });
    bobToken = await sign({ role: 'authenticated', sub: bob, ref });
    // What an app's migration writes: private buckets per user folder, one public bucket.
    await projectDb(async (c) => {
      await c.query(`SET ROLE "${databaseNames(ref).owner}"`);
      await c.query(`INSERT INTO storage.buckets (id, name, public, file_size_limit, allowed_mime_types) VALUES ('docs', 'docs', false, 1000, NULL), ('pics', 'pics', true, NULL, ARRAY['image/*'])`);
      await c.query(`CREATE POLICY own_folder ON storage.objects FOR ALL TO authenticated USING (bucket_id = 'docs' AND (storage.foldername(name))[1] = auth.uid()::text) WITH CHECK (bucket_id = 'docs' AND (storage.foldername(name))[1] = auth.uid()::text)`);
      await c.query(`CREATE POLICY pics_write ON storage.objects FOR ALL TO authenticated USING (bucket_id = 'pics') WITH CHECK (bucket_id = 'pics')`);
      await c.query(`CREATE POLICY read_buckets ON storage.buckets FOR SELECT TO authenticated USING (true)`);
    });
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api.close();
    await provisioner.drop(ref);
    await provisioner.close();
  });

  it('sets the storage schema up idempotently, with RLS on and Supabase’s helper functions', async () => {
    await projectDb(async (c) => {
      await c.query('BEGIN');
      await c.query(projectDatabaseSetup(ref));
      await c.query('COMMIT');
      const rls = await c.query<{ relname: string; relrowsecurity: boolean }>(`SELECT relname, relrowsecurity FROM pg_class WHERE relnamespace = 'storage'::regnamespace AND relkind = 'r' ORDER BY relname`);
      expect(rls.rows).toEqual([
        { relname: 'buckets', relrowsecurity: true },
        { relname: 'objects', relrowsecurity: true },
      ]);
      const helpers = await c.query(`SELECT storage.foldername('a/b/c.png') AS f, storage.filename('a/b/c.png') AS n, storage.extension('a/b/c.png') AS e`);
      expect(helpers.rows[0]).toEqual({ f: ['a', 'b'], n: 'c.png', e: 'png' });
      // The policies written before the re-run are still there.
      expect((await c.query(`SELECT count(*)::int AS n FROM pg_policies WHERE schemaname = 'storage'`)).rows[0]).toEqual({ n: 3 });
    });
  });

  it('uploads, downloads, overwrites (the old bytes deleted) and keeps users apart', async () => {
    const a = storageOf(aliceToken);
    const up = await a.from('docs').upload(`${alice}/note.txt`, Buffer.from('hello'), { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: `${alice}/note.txt`, fullPath: `docs/${alice}/note.txt` });
    const down = await a.from('docs').download(`${alice}/note.txt`);
    expect(await down.data?.text()).toBe('hello');
    const before = store.keys().length;
    const again = await a.from('docs').upload(`${alice}/note.txt`, Buffer.from('bye'), { contentType: 'text/plain', upsert: true });
    expect(again.error).toBeNull();
    expect(await (await a.from('docs').download(`${alice}/note.txt`)).data?.text()).toBe('bye');
    expect(store.keys().length).toBe(before);
    const dup = await a.from('docs').upload(`${alice}/note.txt`, Buffer.from('x'), { contentType: 'text/plain' });
    expect(dup.error).toMatchObject({ status: 409, message: 'The resource already exists' });

    const b = storageOf(bobToken);
    const theirs = await b.from('docs').download(`${alice}/note.txt`);
    expect(theirs.error).toMatchObject({ status: 404 });
    const intoAlice = await b.from('docs').upload(`${alice}/evil.txt`, Buffer.from('x'), { contentType: 'text/plain' });
    expect(intoAlice.error).toMatchObject({ status: 403, message: 'new row violates row-level security policy' });
    const anon = await storageOf().from('docs').download(`${alice}/note.txt`);
    expect(anon.error).toMatchObject({ status: 404 });
  });

  it('refuses a MIME type, a size over the bucket limit and an empty file, and leaves no bytes behind', async () => {
    const a = storageOf(aliceToken);
    const count = () => store.keys().length;
    const before = count();
    expect((await a.from('pics').upload('x.txt', Buffer.from('text'), { contentType: 'text/plain' })).error).toMatchObject({ status: 415 });
    expect((await a.from('pics').upload('x.png', new Blob([new Uint8Array([1, 2, 3])], { type: 'text/html' }))).error).toMatchObject({ status: 415 });
    expect((await a.from('docs').upload(`${alice}/big.bin`, Buffer.alloc(1001), { contentType: 'application/octet-stream' })).error).toMatchObject({ status: 413 });
    expect((await a.from('pics').upload('huge.png', Buffer.alloc(4097), { contentType: 'image/png' })).error).toMatchObject({ status: 413 });
    expect((await a.from('docs').upload(`${alice}/empty.txt`, Buffer.alloc(0), { contentType: 'text/plain' })).error).toMatchObject({ status: 400, message: 'The file is empty' });
    expect(count()).toBe(before);
  });

  it('takes a multipart form (a Blob, as browsers send), and serves a public bucket without a key', async () => {
    const a = storageOf(aliceToken);
    const up = await a.from('pics').upload('cat.png', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { cacheControl: '60' });
    expect(up.error).toBeNull();
    const publicUrl = a.from('pics').getPublicUrl('cat.png').data.publicUrl;
    const res = await rawRequest(port, `${ref}.data.localhost`, 'GET', new URL(publicUrl).pathname, {});
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('max-age=60');
  });

  it('refuses hostile paths with a clear 400', async () => {
    const a = storageOf(aliceToken);
    for (const path of [`${alice}/a\u0000b.txt`, `${alice}/${'x'.repeat(4096)}`, `${alice}/evil\u202Etxt.exe`, `${alice}/zero\u200Bwidth.txt`]) {
      const up = await a.from('docs').upload(path, Buffer.from('x'), { contentType: 'text/plain' });
      expect(up.error).toMatchObject({ status: 400 });
    }
    const raw = await rawRequest(port, `${ref}.data.localhost`, 'POST', `/storage/v1/object/docs/${alice}/%2e%2e/%2e%2e/secret.txt`, { apikey: anonKey, authorization: `Bearer ${aliceToken}`, 'content-type': 'text/plain' }, 'x');
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.body)).toEqual({ statusCode: '400', error: 'InvalidKey', message: 'The object path must not contain "." or ".." segments' });
  });

  it('enforces the plan’s quota (402) and answers 503 when the ObjectStore is down, keeping what exists', async () => {
    const a = storageOf(aliceToken);
    quotaBytes = 0;
    const over = await a.from('pics').upload('q.png', Buffer.from('abc'), { contentType: 'image/png' });
    expect(over.error).toMatchObject({ status: 402 });
    quotaBytes = 10_000;
    store.down = true;
    try {
      const down = await a.from('pics').upload('d.png', Buffer.from('abc'), { contentType: 'image/png' });
      expect(down.error).toMatchObject({ status: 503 });
      expect((await a.from('pics').download('cat.png')).error).toMatchObject({ status: 503 });
    } finally {
      store.down = false;
    }
    expect((await a.from('pics').download('cat.png')).error).toBeNull();
    expect((await a.from('pics').list()).data?.map((f) => f.name)).toEqual(['cat.png']);
  });

  it('lets concurrent upserts of one new name all succeed, leaving one object and one key', async () => {
    const a = storageOf(aliceToken);
    const before = store.keys().length;
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => a.from('pics').upload('race.png', Buffer.from(`v${i}`), { contentType: 'image/png', upsert: true })));
    expect(results.map((r) => r.error)).toEqual(Array(6).fill(null));
    expect(store.keys().length).toBe(before + 1);
    expect(await (await a.from('pics').download('race.png')).data?.text()).toMatch(/^v[0-5]$/);
    expect((await a.from('pics').remove(['race.png'])).data).toHaveLength(1);
    expect(store.keys().length).toBe(before);
  });

  it('answers a CORS preflight allowing what storage-js sends', async () => {
    const res = await rawRequest(port, `${ref}.data.localhost`, 'OPTIONS', '/storage/v1/object/docs/x', { origin: 'http://app.example', 'access-control-request-method': 'PUT' });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('PUT');
    expect(res.headers['access-control-allow-headers']).toContain('x-upsert');
  });

  it('answers 503 when the project database cannot be reached', async () => {
    const saved = target;
    target = { ...target, connection: { ...target.connection, port: 1 } };
    try {
      const res = await storageOf(aliceToken).from('pics').download('cat.png');
      expect(res.error).toMatchObject({ status: 503 });
    } finally {
      target = saved;
    }
  });
});
