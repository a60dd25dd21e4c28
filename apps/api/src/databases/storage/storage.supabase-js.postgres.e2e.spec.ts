import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { loopbackBinaryFetch } from '@kiln/adapters/testing';
import { APP_POLICIES, type StorageApp, startStorageApp } from './testing/storage-harness.js';

jest.setTimeout(60_000);

/**
 * The bar of issue 18 for storage: supabase-js 2.109's `.storage` against the real API app
 * (createApp) on real PostgreSQL — a provisioned project database, app users signed up through
 * /auth/v1, policies written as an app's migration writes them — with an in-memory ObjectStore.
 */
describe('Storage through @supabase/supabase-js (e2e, local PostgreSQL)', () => {
  let s: StorageApp;
  let a: { id: string; token: string };
  let b: { id: string; token: string };

  beforeAll(async () => {
    s = await startStorageApp();
    await s.migrate(APP_POLICIES);
    a = await s.signUp('ana');
    b = await s.signUp('ben');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('creates, gets, lists, updates, empties and deletes buckets', async () => {
    const storage = s.client(a.token).storage;
    expect(await storage.createBucket('scratch', { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['text/*'] })).toEqual({ data: { name: 'scratch' }, error: null });
    const got = await storage.getBucket('scratch');
    expect(got.error).toBeNull();
    expect(got.data).toMatchObject({ id: 'scratch', name: 'scratch', public: false, file_size_limit: 1024 * 1024, allowed_mime_types: ['text/*'] });
    expect((await storage.listBuckets()).data?.map((x) => x.id)).toContain('scratch');
    expect((await storage.updateBucket('scratch', { public: true, allowedMimeTypes: ['text/plain'] })).error).toBeNull();
    expect((await storage.getBucket('scratch')).data).toMatchObject({ public: true, allowed_mime_types: ['text/plain'] });
    expect((await storage.from('scratch').upload(`${a.id}/x.txt`, Buffer.from('x'), { contentType: 'text/plain' })).error).toBeNull();
    const notEmpty = await storage.deleteBucket('scratch');
    expect(notEmpty.error).toMatchObject({ status: 409, message: 'The bucket you tried to delete is not empty' });
    expect(await storage.emptyBucket('scratch')).toEqual({ data: { message: 'Successfully emptied' }, error: null });
    expect(await storage.deleteBucket('scratch')).toEqual({ data: { message: 'Successfully deleted' }, error: null });
    const gone = await storage.getBucket('scratch');
    expect(gone.error).toMatchObject({ name: 'StorageApiError', status: 404, message: 'Bucket not found' });
    const bad = await storage.createBucket('../evil');
    expect(bad.error).toMatchObject({ status: 400 });
    // Anonymous callers have no bucket policy: nothing to see, nothing to create.
    expect((await s.client().storage.createBucket('anon-made')).error).toMatchObject({ status: 403 });
  });

  it('uploads (raw and multipart), updates, downloads, reads info, checks existence, lists, moves, copies and removes', async () => {
    const storage = s.client(a.token).storage;
    expect((await storage.createBucket('private', { public: false, fileSizeLimit: 2048 })).error).toBeNull();
    const files = storage.from('private');
    const up = await files.upload(`/${a.id}//notes/today.txt/`, Buffer.from('first'), { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: `${a.id}/notes/today.txt`, fullPath: `private/${a.id}/notes/today.txt`, id: expect.any(String) });
    const blob = await files.upload(`${a.id}/photo.png`, new Blob([new Uint8Array([137, 80, 78, 71, 1])], { type: 'image/png' }));
    expect(blob.error).toBeNull();
    expect((await files.update(`${a.id}/notes/today.txt`, Buffer.from('second'), { contentType: 'text/plain' })).error).toBeNull();
    expect((await files.update(`${a.id}/nothing.txt`, Buffer.from('x'), { contentType: 'text/plain' })).error).toMatchObject({ status: 404 });

    const down = await files.download(`${a.id}/notes/today.txt`);
    expect(await down.data?.text()).toBe('second');
    // The same object at /object/authenticated/… (what the dashboard's links use), with the caller's token.
    const authenticated = await loopbackBinaryFetch(`${s.dataUrl}/storage/v1/object/authenticated/private/${a.id}/notes/today.txt`, { headers: { apikey: s.anonKey, authorization: `Bearer ${a.token}` } });
    expect([authenticated.status, await authenticated.text()]).toEqual([200, 'second']);
    const info = await files.info(`${a.id}/photo.png`);
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: `${a.id}/photo.png`, bucketId: 'private', size: 5, contentType: 'image/png', cacheControl: 'max-age=3600' });
    expect(await files.exists(`${a.id}/photo.png`)).toMatchObject({ data: true });
    expect((await files.exists(`${a.id}/nope.png`)).data).toBe(false);

    const top = await files.list(a.id);
    expect(top.error).toBeNull();
    expect(top.data?.map((f) => [f.name, f.id === null])).toEqual([
      ['notes', true],
      ['photo.png', false],
    ]);
    expect(top.data?.[1]?.metadata).toMatchObject({ size: 5, mimetype: 'image/png', cacheControl: 'max-age=3600' });
    expect((await files.list(a.id, { search: 'pho' })).data?.map((f) => f.name)).toEqual(['photo.png']);
    expect((await files.list(a.id, { limit: 1, offset: 1 })).data?.map((f) => f.name)).toEqual(['photo.png']);
    const v2 = await files.listV2({ prefix: `${a.id}/`, with_delimiter: true });
    expect(v2.error).toBeNull();
    expect(v2.data).toMatchObject({ hasNext: false, folders: [{ name: 'notes', key: `${a.id}/notes/` }], objects: [{ name: `${a.id}/photo.png` }] });

    expect(await files.move(`${a.id}/notes/today.txt`, `${a.id}/notes/yesterday.txt`)).toEqual({ data: { message: 'Successfully moved' }, error: null });
    expect((await files.download(`${a.id}/notes/today.txt`)).error).toMatchObject({ status: 404 });
    const copied = await files.copy(`${a.id}/notes/yesterday.txt`, `${a.id}/copy.txt`);
    expect(copied).toEqual({ data: { path: `private/${a.id}/copy.txt` }, error: null });
    expect(await (await files.download(`${a.id}/copy.txt`)).data?.text()).toBe('second');

    const removed = await files.remove([`${a.id}/copy.txt`, `${a.id}/notes/yesterday.txt`, `${a.id}/never-was.txt`]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((f) => f.name).sort()).toEqual([`${a.id}/copy.txt`, `${a.id}/notes/yesterday.txt`]);
    expect((await files.list(a.id)).data?.map((f) => f.name)).toEqual(['photo.png']);
    // Every key left in the ObjectStore belongs to a live object: nothing leaked by the overwrite, move, copy and removal.
    const [{ count } = { count: 0 }] = await rows(s, 'SELECT count(*)::int AS count FROM storage.objects');
    expect(s.objects.keys().filter((k) => k.startsWith(`${s.ref}/`))).toHaveLength(count);
  });

  it('keeps user B out of user A’s private objects', async () => {
    const files = s.client(a.token).storage.from('private');
    expect((await files.upload(`${a.id}/diary.txt`, Buffer.from('secret'), { contentType: 'text/plain' })).error).toBeNull();
    const asB = s.client(b.token).storage.from('private');
    expect((await asB.download(`${a.id}/diary.txt`)).error).toMatchObject({ status: 404 });
    expect((await asB.info(`${a.id}/diary.txt`)).error).toMatchObject({ status: 404 });
    expect((await asB.list(a.id)).data).toEqual([]);
    expect((await asB.createSignedUrl(`${a.id}/diary.txt`, 60)).error).toMatchObject({ status: 404 });
    const keys = s.objects.keys().length;
    expect((await asB.upload(`${a.id}/diary.txt`, Buffer.from('overwritten'), { contentType: 'text/plain', upsert: true })).error).toMatchObject({ status: 403 });
    expect((await asB.upload(`${a.id}/other.txt`, Buffer.from('planted'), { contentType: 'text/plain' })).error).toMatchObject({ status: 403, message: 'new row violates row-level security policy' });
    // The bytes written before RLS said no were deleted again.
    expect(s.objects.keys().length).toBe(keys);
    expect((await asB.remove([`${a.id}/diary.txt`])).data).toEqual([]);
    expect((await asB.move(`${a.id}/diary.txt`, `${b.id}/stolen.txt`)).error).toMatchObject({ status: 404 });
    expect((await asB.copy(`${a.id}/diary.txt`, `${b.id}/stolen.txt`)).error).toMatchObject({ status: 404 });
    expect((await s.client().storage.from('private').download(`${a.id}/diary.txt`)).error).toMatchObject({ status: 404 });
    expect(await (await files.download(`${a.id}/diary.txt`)).data?.text()).toBe('secret');
  });

  it('serves a public bucket’s objects without a key, and refuses a MIME type and a size over the limit', async () => {
    const storage = s.client(a.token).storage;
    expect((await storage.createBucket('avatars', { public: true, fileSizeLimit: 1000, allowedMimeTypes: ['image/*'] })).error).toBeNull();
    const avatars = storage.from('avatars');
    expect((await avatars.upload(`${a.id}.png`, Buffer.from([1, 2, 3]), { contentType: 'image/png' })).error).toBeNull();
    const url = avatars.getPublicUrl(`${a.id}.png`).data.publicUrl;
    const res = await loopbackBinaryFetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([1, 2, 3]);

    const mime = await avatars.upload(`${a.id}.html`, Buffer.from('<script>'), { contentType: 'text/html' });
    expect(mime.error).toMatchObject({ name: 'StorageApiError', status: 415, message: 'mime type text/html is not supported' });
    const big = await avatars.upload(`${a.id}-big.png`, Buffer.alloc(1001, 1), { contentType: 'image/png' });
    expect(big.error).toMatchObject({ status: 413, message: 'The object exceeded the maximum allowed size (1000 bytes)' });
    // The private bucket is not public: its public URL answers nothing.
    const hidden = await loopbackBinaryFetch(storage.from('private').getPublicUrl(`${a.id}/photo.png`).data.publicUrl);
    expect(hidden.status).toBe(404);
  });

  it('signs URLs (one and many) that download without a key, and a URL that expires', async () => {
    const files = s.client(a.token).storage.from('private');
    expect((await files.upload(`${a.id}/signed.txt`, Buffer.from('signed body'), { contentType: 'text/plain' })).error).toBeNull();
    const one = await files.createSignedUrl(`${a.id}/signed.txt`, 60);
    expect(one.error).toBeNull();
    expect(await (await loopbackBinaryFetch(one.data!.signedUrl)).text()).toBe('signed body');
    const many = await files.createSignedUrls([`${a.id}/signed.txt`, `${a.id}/missing.txt`], 60);
    expect(many.error).toBeNull();
    expect(many.data?.[0]).toMatchObject({ error: null, path: `${a.id}/signed.txt` });
    expect(many.data?.[1]).toMatchObject({ error: expect.any(String), signedUrl: null });
    expect(await (await loopbackBinaryFetch(many.data![0]!.signedUrl!)).text()).toBe('signed body');

    const short = await files.createSignedUrl(`${a.id}/signed.txt`, 1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await loopbackBinaryFetch(short.data!.signedUrl);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toEqual({ statusCode: '400', error: 'InvalidSignature', message: 'The signed URL has expired' });
  });

  it('signs an upload URL that uploads without a key, once', async () => {
    const files = s.client(a.token).storage.from('private');
    const signed = await files.createSignedUploadUrl(`${a.id}/dropped.txt`);
    expect(signed.error).toBeNull();
    const up = await s.client().storage.from('private').uploadToSignedUrl(`${a.id}/dropped.txt`, signed.data!.token, Buffer.from('dropped in'), { contentType: 'text/plain' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: `${a.id}/dropped.txt`, fullPath: `private/${a.id}/dropped.txt` });
    expect(await (await files.download(`${a.id}/dropped.txt`)).data?.text()).toBe('dropped in');
    const again = await s.client().storage.from('private').uploadToSignedUrl(`${a.id}/dropped.txt`, signed.data!.token, Buffer.from('again'), { contentType: 'text/plain' });
    expect(again.error).toMatchObject({ status: 409 });
    // B may not even get a signed upload URL into A's folder.
    expect((await s.client(b.token).storage.from('private').createSignedUploadUrl(`${a.id}/b.txt`)).error).toMatchObject({ status: 403 });
  });

  it('deletes the project database’s files when the database is deleted from the provider', async () => {
    expect(s.objects.keys().some((k) => k.startsWith(`${s.ref}/`))).toBe(true);
    await s.t.http().delete(`/database/${s.projectId}?deleteFromProvider=true`).set(s.ownerAuth).expect(200);
    expect(s.objects.keys().filter((k) => k.startsWith(`${s.ref}/`))).toEqual([]);
    // At once, not when the data origin's lookup expires.
    expect((await s.client(a.token).storage.from('private').download(`${a.id}/diary.txt`)).error).toMatchObject({ status: 404, message: 'No project database at this address' });
  });
});

async function rows(s: StorageApp, sql: string): Promise<{ count: number }[]> {
  const pg = (await import('pg')).default;
  const { adminUrl } = await import('./testing/storage-harness.js');
  const url = new URL(adminUrl);
  url.pathname = `/kiln_app_${s.ref}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    return (await c.query<{ count: number }>(sql)).rows;
  } finally {
    await c.end();
  }
}
