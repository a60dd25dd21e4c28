import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { loopbackBinaryFetch, rawRequest } from '@kiln/adapters/testing';
import { APP_POLICIES, type StorageApp, startStorageApp } from './testing/storage-harness.js';

jest.setTimeout(60_000);

/**
 * Hostile input to storage through the real API app (issue 18 "Hostile input"): every attempt
 * gets a clear error in storage-js's shape, and nothing is lost — the objects already there are
 * all still there, with their bytes, afterwards.
 */
describe('Storage against hostile input (e2e, local PostgreSQL)', () => {
  let s: StorageApp;
  let a: { id: string; token: string };
  let b: { id: string; token: string };
  const kept = () => s.client(a.token).storage.from('vault');

  beforeAll(async () => {
    // A free plan with a 1 MB storage quota and a 1 MB cap per file.
    s = await startStorageApp({ plan: 'free', env: { STORAGE_FREE_QUOTA_MB: '1', STORAGE_MAX_FILE_MB: '1' } });
    await s.migrate(APP_POLICIES);
    a = await s.signUp('amy');
    b = await s.signUp('bob');
    const storage = s.client(a.token).storage;
    expect((await storage.createBucket('vault', { public: false })).error).toBeNull();
    expect((await storage.createBucket('small', { public: false, fileSizeLimit: 100 })).error).toBeNull();
    expect((await kept().upload(`${a.id}/keep.txt`, Buffer.from('precious'), { contentType: 'text/plain' })).error).toBeNull();
    expect((await s.client(b.token).storage.from('vault').upload(`${b.id}/keep.txt`, Buffer.from('bob’s'), { contentType: 'text/plain' })).error).toBeNull();
  });
  afterAll(async () => {
    // Nothing lost: both users' objects are intact after every attack below.
    expect(await (await kept().download(`${a.id}/keep.txt`)).data?.text()).toBe('precious');
    expect(await (await s.client(b.token).storage.from('vault').download(`${b.id}/keep.txt`)).data?.text()).toBe('bob’s');
    await s?.close();
  });

  const raw = (method: string, path: string, body?: string, token = a.token) =>
    rawRequest(s.port, `${s.ref}.data.localhost`, method, path, { apikey: s.anonKey, authorization: `Bearer ${token}`, 'content-type': 'text/plain' }, body);

  it.each([
    ['a parent step', '%2e%2e/%2e%2e/keep.txt', 'The object path must not contain "." or ".." segments'],
    ['a parent step inside the user folder', 'USER/%2e%2e/OTHER/keep.txt', 'The object path must not contain "." or ".." segments'],
    ['a current-folder step', 'USER/%2e/keep.txt', 'The object path must not contain "." or ".." segments'],
    ['NUL', 'USER/keep.txt%00.png', 'The object path must not contain control characters (NUL included)'],
    ['a new line', 'USER/a%0Ab.txt', 'The object path must not contain control characters (NUL included)'],
    ['a right-to-left override', 'USER/evil%E2%80%AEtxt.exe', 'The object path must not contain bidirectional overrides or zero-width characters'],
    ['a zero-width joiner', 'USER/ke%E2%80%8Dep.txt', 'The object path must not contain bidirectional overrides or zero-width characters'],
    ['a 4 kB name', `USER/${'n'.repeat(4096)}`, 'The object path is longer than 1024 bytes'],
    ['invalid percent-encoding', 'USER/%E0%A4%A', 'The path could not be decoded'],
  ])('refuses a path with %s (400, InvalidKey)', async (_what, path, message) => {
    const p = path.replace('USER', a.id).replace('OTHER', b.id);
    const res = await raw('POST', `/storage/v1/object/vault/${p}`, 'x');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ statusCode: '400', error: 'InvalidKey', message });
  });

  it('refuses the same through supabase-js with StorageApiError (name, message, status)', async () => {
    for (const path of [`${a.id}/nul\u0000.txt`, `${a.id}/${'x'.repeat(4096)}`, `${a.id}/rtl\u202Egnp.exe`, `${a.id}/\uFEFFbom.txt`]) {
      const up = await kept().upload(path, Buffer.from('x'), { contentType: 'text/plain' });
      expect(up.error).toMatchObject({ name: 'StorageApiError', status: 400 });
    }
    // fetch resolves `..` itself: the request lands on another route and is refused, nothing written.
    const dots = await kept().upload('../../etc/passwd', Buffer.from('x'), { contentType: 'text/plain' });
    expect(dots.error).toMatchObject({ name: 'StorageApiError' });
    expect(dots.error && 'status' in dots.error ? dots.error.status : 0).toBeGreaterThanOrEqual(400);
    // A name written in decomposed Unicode is stored as NFC: one object, reachable either way.
    expect((await kept().upload(`${a.id}/Cafe\u0301.txt`, Buffer.from('nfc'), { contentType: 'text/plain' })).error).toBeNull();
    expect(await (await kept().download(`${a.id}/Café.txt`)).data?.text()).toBe('nfc');
  });

  it('refuses an empty upload, one over the bucket’s limit, over the global cap and over the plan’s quota', async () => {
    const before = s.objects.keys().length;
    expect((await kept().upload(`${a.id}/empty.txt`, Buffer.alloc(0), { contentType: 'text/plain' })).error).toMatchObject({ status: 400, message: 'The file is empty' });
    const small = s.client(a.token).storage.from('small');
    expect((await small.upload(`${a.id}/big.txt`, Buffer.alloc(101, 97), { contentType: 'text/plain' })).error).toMatchObject({ status: 413 });
    expect((await small.upload(`${a.id}/big.bin`, new Blob([new Uint8Array(101)], { type: 'application/octet-stream' }))).error).toMatchObject({ status: 413 });
    const overCap = await kept().upload(`${a.id}/huge.bin`, Buffer.alloc(1024 * 1024 + 1), { contentType: 'application/octet-stream' });
    expect(overCap.error).toMatchObject({ status: 413 });
    // 600 kB fits, a second 600 kB would pass the 1 MB quota: 402.
    expect((await kept().upload(`${a.id}/half.bin`, Buffer.alloc(600 * 1024, 1), { contentType: 'application/octet-stream' })).error).toBeNull();
    const quota = await kept().upload(`${a.id}/more.bin`, Buffer.alloc(600 * 1024, 2), { contentType: 'application/octet-stream' });
    expect(quota.error).toMatchObject({ status: 402 });
    expect(quota.error?.message).toMatch(/storage quota/);
    expect(s.objects.keys().length).toBe(before + 1);
    expect((await kept().remove([`${a.id}/half.bin`])).error).toBeNull();
  });

  it('refuses signed tokens that are tampered, expired, for another object or for another purpose', async () => {
    const signed = await kept().createSignedUrl(`${a.id}/keep.txt`, 60);
    const url = new URL(signed.data!.signedUrl);
    const token = url.searchParams.get('token')!;
    const [h, p, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, url: `vault/${b.id}/keep.txt` })).toString('base64url')}.${sig}`;
    const get = async (path: string, t: string) => {
      const res = await loopbackBinaryFetch(`${s.dataUrl}/storage/v1/object/sign/vault/${path}?token=${t}`);
      return { status: res.status, body: (await res.json()) as { message: string } };
    };
    expect(await get(`${b.id}/keep.txt`, forged)).toEqual({ status: 400, body: expect.objectContaining({ message: 'The token could not be verified (invalid signature)' }) });
    expect(await get(`${a.id}/keep.txt`, `${token.slice(0, -2)}xx`)).toMatchObject({ status: 400, body: { message: 'The token could not be verified (invalid signature)' } });
    expect(await get(`${b.id}/keep.txt`, token)).toMatchObject({ status: 400, body: { message: 'The token is for another object' } });
    expect(await get(`${a.id}/keep.txt`, '')).toMatchObject({ status: 400, body: { message: 'A token is required (?token=)' } });
    const upload = await kept().createSignedUploadUrl(`${a.id}/new.txt`);
    expect(await get(`${a.id}/new.txt`, upload.data!.token)).toMatchObject({ status: 400, body: { message: 'The token is not a signed download token' } });
    // A signed upload URL without upsert cannot overwrite, whatever the uploader's x-upsert says.
    const intoExisting = await kept().createSignedUploadUrl(`${a.id}/keep2.txt`);
    expect((await kept().upload(`${a.id}/keep2.txt`, Buffer.from('mine'), { contentType: 'text/plain' })).error).toBeNull();
    const overwrite = await s.client().storage.from('vault').uploadToSignedUrl(`${a.id}/keep2.txt`, intoExisting.data!.token, Buffer.from('theirs'), { contentType: 'text/plain', upsert: true });
    expect(overwrite.error).toMatchObject({ status: 409 });
    expect(await (await kept().download(`${a.id}/keep2.txt`)).data?.text()).toBe('mine');
    const put = await rawRequest(s.port, `${s.ref}.data.localhost`, 'PUT', `/storage/v1/object/upload/sign/vault/${a.id}/keep.txt?token=${token}`, { 'content-type': 'text/plain', 'x-upsert': 'true' }, 'overwrite');
    expect(put.status).toBe(400);
    expect(JSON.parse(put.body)).toMatchObject({ message: 'The token is not a signed upload token' });
    // A signed URL's token is no access token: the data API refuses it.
    const rest = await rawRequest(s.port, `${s.ref}.data.localhost`, 'GET', '/rest/v1/anything', { apikey: s.anonKey, authorization: `Bearer ${token}` });
    expect(rest.status).toBe(401);
    const shortLived = await kept().createSignedUrl(`${a.id}/keep.txt`, 1);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await get(`${a.id}/keep.txt`, new URL(shortLived.data!.signedUrl).searchParams.get('token')!)).toMatchObject({ status: 400, body: { message: 'The signed URL has expired' } });
  });

  it('refuses bad JSON, bad keys and unknown routes with clear 4xx', async () => {
    expect((await raw('POST', '/storage/v1/object/list/vault', '{not json')).status).toBe(400);
    expect((await raw('POST', '/storage/v1/object/list/vault', JSON.stringify({ limit: -1 }))).status).toBe(400);
    expect((await raw('DELETE', '/storage/v1/object/vault', JSON.stringify({ prefixes: 'keep.txt' }))).status).toBe(400);
    expect((await raw('POST', '/storage/v1/object/sign/vault/x', JSON.stringify({ expiresIn: 'forever' }))).status).toBe(400);
    const badKey = await rawRequest(s.port, `${s.ref}.data.localhost`, 'GET', `/storage/v1/object/vault/${a.id}/keep.txt`, { apikey: 'not-a-jwt' });
    expect(badKey.status).toBe(401);
    expect(JSON.parse(badKey.body)).toMatchObject({ statusCode: '401', error: 'Unauthorized' });
    expect((await raw('PATCH', '/storage/v1/object/vault/x')).status).toBe(404);
  });
});
