import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { OfflineAiAssistant } from '@kiln/offline-assistant';
import { drive, starterFiles } from '@kiln/offline-assistant/testing';
import { type StorageApp, startStorageApp } from './testing/storage-harness.js';

jest.setTimeout(60_000);

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);

/**
 * Issue 18 item 4: the photo gallery the offline assistant builds, for real. Its migration runs
 * on a provisioned project database (twice: it is re-runnable), then its calls — the same
 * storage-js calls `src/data/photos.ts` makes — go through the API's /storage/v1 and /rest/v1:
 * each person uploads into their own folder, sees only their own photos, and nobody else's.
 */
describe('the offline assistant’s photo gallery on a real project database', () => {
  let s: StorageApp;
  let ana: { id: string; token: string };
  let ben: { id: string; token: string };

  beforeAll(async () => {
    const built = await drive(new OfflineAiAssistant(), 'A photo gallery where people sign in and upload their photos', starterFiles(), [], { connected: true, tables: [] });
    const migration = built.files.get('supabase/migrations/0001_photos.sql');
    if (migration === undefined) throw new Error('the gallery has no migration');
    s = await startStorageApp();
    await s.migrate(migration);
    await s.migrate(migration);
    ana = await s.signUp('ana');
    ben = await s.signUp('ben');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('uploads into the own folder, records the caption, and shows it through a signed URL', async () => {
    const db = s.client(ana.token);
    const path = `${ana.id}/1700000000000-beach.png`;
    expect((await db.storage.from('photos').upload(path, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png', upsert: false })).error).toBeNull();
    const row = await db.from('photos').insert({ user_id: ana.id, path, caption: 'Beach' }).select().single();
    expect(row.error).toBeNull();
    const links = await db.storage.from('photos').createSignedUrls([path], 3600);
    expect(links.error).toBeNull();
    const signed = links.data?.[0]?.signedUrl ?? '';
    expect(signed).toContain('/storage/v1/object/sign/photos/');
    const listed = await db.from('photos').select('*');
    expect(listed.data?.map((p) => p.caption)).toEqual(['Beach']);
  });

  it('another person sees none of it and cannot write into that folder', async () => {
    const db = s.client(ben.token);
    expect((await db.from('photos').select('*')).data).toEqual([]);
    expect((await db.storage.from('photos').list(ana.id)).data).toEqual([]);
    expect((await db.storage.from('photos').download(`${ana.id}/1700000000000-beach.png`)).error).toMatchObject({ status: 404 }); // not found, as for one that is not there
    const intrusion = await db.storage.from('photos').upload(`${ana.id}/planted.png`, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
    expect(intrusion.error).toMatchObject({ name: 'StorageApiError', status: 403 });
    // Anonymous visitors neither.
    expect((await s.client().storage.from('photos').upload('anyone/x.png', new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' })).error).toMatchObject({ status: 403 });
  });

  it('the bucket takes images only, up to 5 MB', async () => {
    const db = s.client(ana.token).storage.from('photos');
    expect((await db.upload(`${ana.id}/notes.txt`, new Blob(['hello'], { type: 'text/plain' }), { contentType: 'text/plain' })).error).toMatchObject({ status: 415 });
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    expect((await db.upload(`${ana.id}/huge.png`, new Blob([big], { type: 'image/png' }), { contentType: 'image/png' })).error).toMatchObject({ status: 413 });
  });

  it('deleting a photo removes its row and its file', async () => {
    const db = s.client(ana.token);
    const path = `${ana.id}/1700000000000-beach.png`;
    expect((await db.from('photos').delete().eq('path', path)).error).toBeNull();
    expect((await db.storage.from('photos').remove([path])).error).toBeNull();
    expect((await db.storage.from('photos').list(ana.id)).data).toEqual([]);
  });
});
