/**
 * The `storage` schema of every project database (docs/databases.md "Storage"), as Supabase has
 * it: buckets and objects' metadata, row-level security ENABLED with no policy (nothing is
 * reachable until the app's migration adds policies), and the helper functions apps' policies
 * call. Idempotent: run with the rest of projectDatabaseSetup on every provision and reattach.
 *
 * The `kiln_*` functions are SECURITY DEFINER (their owner, who set the database up, bypasses
 * RLS) and read only what the storage service needs whatever the policies: a bucket's limits
 * (an upload checks them, Supabase reads them as its superuser too), a public bucket's object
 * (public URLs need no token) and the bytes used (the plan's quota).
 */
export const STORAGE_SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS storage;
REVOKE ALL ON SCHEMA storage FROM PUBLIC;
GRANT USAGE ON SCHEMA storage TO anon, authenticated;

CREATE TABLE IF NOT EXISTS storage.buckets (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  owner uuid DEFAULT auth.uid(),
  public boolean NOT NULL DEFAULT false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS storage.objects (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bucket_id text NOT NULL REFERENCES storage.buckets (id),
  name text NOT NULL,
  owner uuid DEFAULT auth.uid(),
  metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
  version text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_accessed_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT objects_bucket_name_key UNIQUE (bucket_id, name)
);
CREATE INDEX IF NOT EXISTS objects_bucket_name_pattern ON storage.objects (bucket_id, name text_pattern_ops);
ALTER TABLE storage.buckets ENABLE ROW LEVEL SECURITY;
ALTER TABLE storage.objects ENABLE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, UPDATE, DELETE ON storage.buckets, storage.objects TO anon, authenticated;

-- Supabase's helpers: (storage.foldername(name))[1] = auth.uid()::text in a policy.
CREATE OR REPLACE FUNCTION storage.foldername(name text) RETURNS text[] LANGUAGE sql IMMUTABLE
  AS $$ SELECT (string_to_array(name, '/'))[1:greatest(cardinality(string_to_array(name, '/')) - 1, 0)] $$;
CREATE OR REPLACE FUNCTION storage.filename(name text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT (string_to_array(name, '/'))[cardinality(string_to_array(name, '/'))] $$;
CREATE OR REPLACE FUNCTION storage.extension(name text) RETURNS text LANGUAGE sql IMMUTABLE
  AS $$ SELECT CASE WHEN storage.filename(name) LIKE '%.%' THEN reverse(split_part(reverse(storage.filename(name)), '.', 1)) ELSE '' END $$;

CREATE OR REPLACE FUNCTION storage.kiln_bucket(bucket text)
  RETURNS TABLE (id text, public boolean, file_size_limit bigint, allowed_mime_types text[])
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
  AS $$ SELECT b.id, b.public, b.file_size_limit, b.allowed_mime_types FROM storage.buckets b WHERE b.id = bucket $$;
CREATE OR REPLACE FUNCTION storage.kiln_public_object(bucket text, object_name text)
  RETURNS TABLE (version text, metadata jsonb)
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
  AS $$ SELECT o.version, o.metadata FROM storage.objects o JOIN storage.buckets b ON b.id = o.bucket_id
        WHERE b.public AND o.bucket_id = bucket AND o.name = object_name $$;
CREATE OR REPLACE FUNCTION storage.kiln_used_bytes() RETURNS bigint
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog
  AS $$ SELECT coalesce(sum((o.metadata ->> 'size')::bigint), 0)::bigint FROM storage.objects o $$;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA storage FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA storage TO anon, authenticated;
`;
