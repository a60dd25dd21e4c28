// Issue #18 item 4: with a database connected, the offline assistant builds a photo gallery with
// uploads (storage) and a guest book that updates live (realtime); without one it declines both.
import { describe, expect, it } from '@jest/globals';
import type { AssistantDatabase } from '@kiln/domain';
import { collect } from '@kiln/domain/testing';
import { SUPABASE_PACKAGE } from './data/data-app.js';
import { GALLERY_BUCKET, GALLERY_MIGRATION_PATH } from './data/gallery-app.js';
import { GUESTBOOK_MIGRATION_PATH } from './data/guestbook-app.js';
import { liveAppFor } from './data/live-apps.js';
import { OfflineAiAssistant } from './offline-assistant.adapter.js';
import { drive, starterFiles } from './testing/drive-assistant.js';

const assistant = new OfflineAiAssistant();
const starter = starterFiles();
const database: AssistantDatabase = { connected: true, tables: [] };

export const GALLERY_PROMPT = 'A photo gallery where people sign in and upload their photos';
export const GUESTBOOK_PROMPT = 'A guest book for our wedding that updates live';

const file = (files: ReadonlyMap<string, string>, path: string): string => {
  const content = files.get(path);
  if (content === undefined) throw new Error(`${path} is missing; files: ${[...files.keys()].join(', ')}`);
  return content;
};
const flat = (code: string) => code.replace(/\s+/g, ' ');

describe('which requests are live apps', () => {
  it.each([
    [GALLERY_PROMPT, 'gallery'],
    ['Let me upload pictures to an album', 'gallery'],
    ['an image gallery with uploads', 'gallery'],
    [GUESTBOOK_PROMPT, 'guestbook'],
    ['a guestbook', 'guestbook'],
    ['a live chat for my club', 'guestbook'],
    ['a real-time message wall', 'guestbook'],
  ])('%s → %s', (prompt, live) => {
    expect(liveAppFor(prompt)?.live).toBe(live);
  });

  it.each(['A portfolio with a photo gallery', 'A landing page for my bakery with pictures', 'A todo list where each person signs in'])('%s is not one', (prompt) => {
    expect(liveAppFor(prompt)).toBeNull();
  });
});

describe('with a database connected', () => {
  it('builds the photo gallery: uploads to the own folder of a private bucket, captions in a table, RLS on both', async () => {
    const result = await drive(assistant, GALLERY_PROMPT, starter, [], database);
    expect(result.plan.kind).toBe('build');
    expect(result.plan.tasks.map((t) => t.title)).toContain('Build the photo gallery with sign-in and uploads');
    const f = result.files;
    const data = flat(file(f, 'src/data/photos.ts'));
    expect(data).toContain(`const BUCKET = '${GALLERY_BUCKET}'`);
    expect(data).toContain('storage.from(BUCKET)');
    expect(data).toContain('bucket.upload(path, file, { contentType: file.type, upsert: false })');
    expect(data).toContain('const path = `${userId}/');
    expect(data).toContain('createSignedUrls(');
    expect(data).toContain('bucket.remove([path])'); // the file goes when its row cannot be written
    const gallery = file(f, 'src/components/PhotoGallery.tsx');
    expect(gallery).toContain('type="file"');
    expect(gallery).toContain('role="alert"');
    expect(file(f, 'src/App.tsx')).toContain('<PhotoGallery />');
    const sql = flat(file(f, GALLERY_MIGRATION_PATH));
    expect(sql).toContain('alter table public.photos enable row level security;');
    expect(sql).toContain(`insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values ('${GALLERY_BUCKET}', '${GALLERY_BUCKET}', false, 5242880,`);
    for (const command of ['insert', 'select', 'delete']) {
      expect(sql).toMatch(new RegExp(`on storage\\.objects for ${command} to authenticated (with check|using) \\(bucket_id = '${GALLERY_BUCKET}' and \\(storage\\.foldername\\(name\\)\\)\\[1\\] = auth\\.uid\\(\\)::text\\)`));
    }
    expect(result.operations).toContainEqual({ type: 'add_dependency', name: SUPABASE_PACKAGE.name, version: SUPABASE_PACKAGE.version });
  });

  it('builds the live guest book: entries read by everyone signed in, written by their author, heard through postgres_changes', async () => {
    const result = await drive(assistant, GUESTBOOK_PROMPT, starter, [], database);
    expect(result.plan.kind).toBe('build');
    const f = result.files;
    const data = flat(file(f, 'src/data/guestbook.ts'));
    expect(data).toContain(".on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'guestbook_entries' }");
    expect(data).toContain(".on('postgres_changes', { event: 'DELETE', schema: 'public', table: 'guestbook_entries' }");
    expect(data).toContain('db.removeChannel(channel)');
    const book = file(f, 'src/components/LiveGuestbook.tsx');
    expect(book).toContain('Sign the guest book');
    expect(book).toContain('watchEntries(');
    expect(file(f, 'src/App.tsx')).toContain('<LiveGuestbook />');
    expect(file(f, 'src/site.ts')).toContain('Sign the guest book and see every message as it arrives');
    const sql = flat(file(f, GUESTBOOK_MIGRATION_PATH));
    expect(sql).toContain('for select to authenticated using (true)');
    expect(sql).toContain('for insert to authenticated with check (user_id = auth.uid())');
    expect(sql).toContain('for delete to authenticated using (user_id = auth.uid())');
  });
});

describe('without a database, both are declined with what to do', () => {
  it.each([GALLERY_PROMPT, GUESTBOOK_PROMPT])('%s', async (prompt) => {
    const events = await collect(assistant.plan({ prompt, tree: [...starter.keys()], files: [...starter].map(([path, content]) => ({ path, content })), history: [] }));
    const error = events.find((e) => e.type === 'error');
    expect(error).toMatchObject({ type: 'error', error: { code: 'AI.DECLINED' } });
    expect(error?.type === 'error' ? error.error.message : '').toMatch(/needs a database.*Connect one first/s);
  });
});
