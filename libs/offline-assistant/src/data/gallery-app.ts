// The photo gallery the offline assistant builds when the project has a database (issue 18 item
// 4): each signed-in person uploads photos into the project's storage bucket `photos` (their own
// folder, private), with a caption row in `photos`; row-level security on both keeps them theirs.
import type { KindBlueprint } from '../kinds/kind.js';
import { AUTH_GATE_TSX, DATA_CSS, SUPABASE_CLIENT_TS } from './data-app.js';
import type { LiveApp } from './live-apps.js';

export const GALLERY_BUCKET = 'photos';
export const GALLERY_MIGRATION_PATH = 'supabase/migrations/0001_photos.sql';
/** What the bucket takes: the images browsers show, up to 5 MiB each. */
export const GALLERY_LIMITS = { fileSizeBytes: 5 * 1024 * 1024, mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] } as const;

export const GALLERY_MIGRATION_SQL = `-- photo gallery: each signed-in person uploads photos to their own folder of the private bucket
-- "${GALLERY_BUCKET}" and captions them; nobody else sees them.
create table if not exists public.photos (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  path text not null unique check (length(path) between 1 and 300),
  caption text not null default '' check (length(caption) <= 200),
  created_at timestamptz not null default now()
);

create index if not exists photos_user_id_idx on public.photos (user_id, created_at);

alter table public.photos enable row level security;

drop policy if exists "photos: owner reads" on public.photos;
create policy "photos: owner reads" on public.photos for select to authenticated using (user_id = auth.uid());
drop policy if exists "photos: owner inserts" on public.photos;
create policy "photos: owner inserts" on public.photos for insert to authenticated with check (user_id = auth.uid());
drop policy if exists "photos: owner deletes" on public.photos;
create policy "photos: owner deletes" on public.photos for delete to authenticated using (user_id = auth.uid());

grant select, insert, delete on public.photos to authenticated;

-- The bucket: private, images only, ${GALLERY_LIMITS.fileSizeBytes / 1024 / 1024} MiB a file.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('${GALLERY_BUCKET}', '${GALLERY_BUCKET}', false, ${GALLERY_LIMITS.fileSizeBytes}, array[${GALLERY_LIMITS.mimeTypes.map((t) => `'${t}'`).join(', ')}])
on conflict (id) do nothing;

-- A person's files live under "<their user id>/": only they may add, see or delete them.
drop policy if exists "photos bucket: owner uploads" on storage.objects;
create policy "photos bucket: owner uploads" on storage.objects for insert to authenticated
  with check (bucket_id = '${GALLERY_BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text);
drop policy if exists "photos bucket: owner reads" on storage.objects;
create policy "photos bucket: owner reads" on storage.objects for select to authenticated
  using (bucket_id = '${GALLERY_BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text);
drop policy if exists "photos bucket: owner deletes" on storage.objects;
create policy "photos bucket: owner deletes" on storage.objects for delete to authenticated
  using (bucket_id = '${GALLERY_BUCKET}' and (storage.foldername(name))[1] = auth.uid()::text);
`;

const PHOTOS_TS = `import { supabase } from '../lib/supabase';

export interface Photo {
  id: string;
  user_id: string;
  path: string;
  caption: string;
  created_at: string;
  /** A link to the image that works for an hour (the bucket is private). */
  url: string | null;
}

const BUCKET = '${GALLERY_BUCKET}';
export const MAX_PHOTO_BYTES = ${GALLERY_LIMITS.fileSizeBytes};
export const PHOTO_TYPES = ${JSON.stringify(GALLERY_LIMITS.mimeTypes)};

function client() {
  if (!supabase) throw new Error('The database is not connected.');
  return supabase;
}

/** The signed-in person's photos (row-level security returns no one else's), newest first. */
export async function listPhotos(): Promise<Photo[]> {
  const { data, error } = await client().from('photos').select('*').order('created_at', { ascending: false });
  if (error) throw error;
  const rows = (data ?? []) as Omit<Photo, 'url'>[];
  if (rows.length === 0) return [];
  const { data: links, error: signing } = await client().storage.from(BUCKET).createSignedUrls(rows.map((r) => r.path), 3600);
  if (signing) throw signing;
  const urlOf = new Map((links ?? []).map((l) => [l.path, l.signedUrl]));
  return rows.map((r) => ({ ...r, url: urlOf.get(r.path) ?? null }));
}

/** Why a file cannot be uploaded, in words, or null. */
export function photoProblem(file: File): string | null {
  if (!PHOTO_TYPES.includes(file.type)) return \`\${file.name} is not a PNG, JPEG, GIF or WebP image.\`;
  if (file.size === 0) return \`\${file.name} is empty.\`;
  if (file.size > MAX_PHOTO_BYTES) return \`\${file.name} is larger than \${MAX_PHOTO_BYTES / 1024 / 1024} MB.\`;
  return null;
}

/** Uploads into the person's own folder, then records the caption; the file goes if the row fails. */
export async function addPhoto(userId: string, file: File, caption: string): Promise<Photo> {
  const safe = file.name.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '') || 'photo';
  const path = \`\${userId}/\${Date.now()}-\${safe}\`;
  const bucket = client().storage.from(BUCKET);
  const { error: uploading } = await bucket.upload(path, file, { contentType: file.type, upsert: false });
  if (uploading) throw uploading;
  const { data, error } = await client().from('photos').insert({ user_id: userId, path, caption: caption.trim() }).select().single();
  if (error) {
    await bucket.remove([path]);
    throw error;
  }
  const { data: link } = await bucket.createSignedUrl(path, 3600);
  return { ...(data as Omit<Photo, 'url'>), url: link?.signedUrl ?? null };
}

export async function deletePhoto(photo: Photo): Promise<void> {
  const { error } = await client().from('photos').delete().eq('id', photo.id);
  if (error) throw error;
  await client().storage.from(BUCKET).remove([photo.path]);
}
`;

const GALLERY_TSX = `import { useEffect, useState, type FormEvent } from 'react';
import type { Session } from '@supabase/supabase-js';
import { AuthGate } from './AuthGate';
import { messageOf } from '../lib/supabase';
import { addPhoto, deletePhoto, listPhotos, photoProblem, type Photo } from '../data/photos';
import '../data.css';
import '../gallery.css';

function Photos({ session }: { session: Session }) {
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [caption, setCaption] = useState('');
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    listPhotos()
      .then((rows) => live && setPhotos(rows))
      .catch((e: unknown) => live && setError(messageOf(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [session.user.id]);

  const upload = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (!file) return;
    const problem = photoProblem(file);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const photo = await addPhoto(session.user.id, file, caption);
      setPhotos((current) => [photo, ...current]);
      setFile(null);
      setCaption('');
      form.reset();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const remove = async (photo: Photo) => {
    setError(null);
    try {
      await deletePhoto(photo);
      setPhotos((current) => current.filter((p) => p.id !== photo.id));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <div>
      <form className="data-form" onSubmit={(e) => void upload(e)}>
        <label>
          Photo
          <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" required onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label>
          Caption (optional)
          <input value={caption} maxLength={200} placeholder="Where was this?" onChange={(e) => setCaption(e.target.value)} />
        </label>
        <button type="submit" className="btn btn-primary" disabled={saving || !file}>
          {saving ? 'Uploading…' : 'Upload photo'}
        </button>
      </form>
      {error && <p className="data-error" role="alert">{error}</p>}
      <h3>Your photos</h3>
      {loading ? (
        <p className="data-status" aria-live="polite">Loading your photos…</p>
      ) : photos.length === 0 ? (
        <p className="data-status">No photos yet — upload the first one above.</p>
      ) : (
        <ul className="photo-grid">
          {photos.map((photo) => (
            <li key={photo.id} className="photo-card">
              {photo.url ? <img src={photo.url} alt={photo.caption || 'A photo'} loading="lazy" /> : <span className="data-status">Image unavailable</span>}
              <span className="photo-caption">{photo.caption}</span>
              <button type="button" className="link-button" onClick={() => void remove(photo)} aria-label={\`Delete \${photo.caption || 'this photo'}\`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function PhotoGallery() {
  return (
    <section id="photos" className="section">
      <div className="wrap">
        <AuthGate>{(session) => <Photos session={session} />}</AuthGate>
      </div>
    </section>
  );
}
`;

const GALLERY_CSS = `.photo-grid { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); }
.photo-card { display: grid; gap: 0.5rem; padding: 0.5rem; border: 1px solid color-mix(in srgb, currentColor 15%, transparent); border-radius: 0.75rem; }
.photo-card img { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: 0.5rem; }
.photo-caption { font-size: 0.9rem; min-height: 1.2em; }
`;

export const GALLERY_APP: LiveApp = {
  live: 'gallery',
  table: 'photos',
  words: { app: 'photo gallery', items: 'photos' },
  tagline: 'Your photos, uploaded and kept in one place',
  migrationPath: GALLERY_MIGRATION_PATH,
  migration: GALLERY_MIGRATION_SQL,
};

export function galleryBlueprint(): KindBlueprint {
  return {
    main: [{ name: 'PhotoGallery', path: 'src/components/PhotoGallery.tsx', content: GALLERY_TSX }],
    support: {
      'src/lib/supabase.ts': SUPABASE_CLIENT_TS,
      'src/components/AuthGate.tsx': AUTH_GATE_TSX,
      'src/data/photos.ts': PHOTOS_TS,
      'src/data.css': DATA_CSS,
      'src/gallery.css': GALLERY_CSS,
      [GALLERY_MIGRATION_PATH]: GALLERY_MIGRATION_SQL,
    },
    coreSections: [],
    hero: 'compact',
    links: [{ href: '#photos', label: 'Photos' }],
    coreTask: {
      title: 'Build the photo gallery with sign-in and uploads',
      description: `Sign-in with email and password; each person uploads photos (PNG, JPEG, GIF or WebP, up to ${GALLERY_LIMITS.fileSizeBytes / 1024 / 1024} MB) into their own folder of the private "${GALLERY_BUCKET}" bucket, captioned in the photos table (owner-only row-level security on both, migration ${GALLERY_MIGRATION_PATH}).`,
    },
  };
}
