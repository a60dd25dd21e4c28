import type { BucketChange, ListOptions, ListV2Options, StorageBucket } from '@kiln/domain';
import type { RoleSql } from '../databases/pg-data-api.js';

/** A bucket's limits as storage.kiln_bucket reads them (past row-level security). */
export interface BucketLimits {
  readonly id: string;
  readonly public: boolean;
  readonly fileSizeLimit: number | null;
  readonly allowedMimeTypes: readonly string[] | null;
}

export interface ObjectRow {
  readonly id: string;
  readonly bucket_id: string;
  readonly name: string;
  readonly owner: string | null;
  readonly version: string;
  readonly metadata: ObjectMetadata;
  readonly created_at: string;
  readonly updated_at: string;
  readonly last_accessed_at: string;
}

/** What storage.objects.metadata holds (Supabase's keys). */
export interface ObjectMetadata {
  readonly eTag: string;
  readonly size: number;
  readonly mimetype: string;
  readonly cacheControl: string;
  readonly lastModified: string;
  readonly contentLength: number;
  readonly httpStatusCode: number;
}

const BUCKET_COLUMNS = 'id, name, owner, public, file_size_limit::float8 AS file_size_limit, allowed_mime_types, created_at, updated_at';
const OBJECT_COLUMNS = 'id, bucket_id, name, owner, version, metadata, created_at, updated_at, last_accessed_at';

/** The SQL of storage's metadata, run inside PgDataApi.transaction (as the caller's role). */
export const storageSql = {
  async bucketLimits(sql: RoleSql, bucket: string): Promise<BucketLimits | null> {
    const rows = await sql.query<{ id: string; public: boolean; file_size_limit: string | null; allowed_mime_types: string[] | null }>('SELECT * FROM storage.kiln_bucket($1)', [bucket]);
    const row = rows[0];
    if (row === undefined) return null;
    return { id: row.id, public: row.public, fileSizeLimit: row.file_size_limit === null ? null : Number(row.file_size_limit), allowedMimeTypes: row.allowed_mime_types };
  },

  async usedBytes(sql: RoleSql): Promise<number> {
    const rows = await sql.query<{ used: string }>('SELECT storage.kiln_used_bytes() AS used');
    return Number(rows[0]?.used ?? 0);
  },

  async listBuckets(sql: RoleSql, options: { limit: number; offset: number; column: string; order: 'asc' | 'desc'; search: string }): Promise<unknown[]> {
    return sql.query(
      `SELECT ${BUCKET_COLUMNS} FROM storage.buckets WHERE $1 = '' OR starts_with(lower(name), lower($1)) ORDER BY ${options.column} ${options.order}, id LIMIT $2 OFFSET $3`,
      [options.search, options.limit, options.offset],
    );
  },

  async getBucket(sql: RoleSql, id: string): Promise<Record<string, unknown> | null> {
    return (await sql.query<Record<string, unknown>>(`SELECT ${BUCKET_COLUMNS} FROM storage.buckets WHERE id = $1`, [id]))[0] ?? null;
  },

  async createBucket(sql: RoleSql, bucket: StorageBucket): Promise<void> {
    await sql.query('INSERT INTO storage.buckets (id, name, public, file_size_limit, allowed_mime_types) VALUES ($1, $2, $3, $4, $5)', [
      bucket.id,
      bucket.name,
      bucket.public,
      bucket.file_size_limit,
      bucket.allowed_mime_types,
    ]);
  },

  /** false: no such bucket the caller may update. */
  async updateBucket(sql: RoleSql, id: string, change: BucketChange): Promise<boolean> {
    const sets: string[] = ['updated_at = now()'];
    const params: unknown[] = [id];
    if (change.public !== undefined) sets.push(`public = $${params.push(change.public)}`);
    if (change.file_size_limit !== undefined) sets.push(`file_size_limit = $${params.push(change.file_size_limit)}`);
    if (change.allowed_mime_types !== undefined) sets.push(`allowed_mime_types = $${params.push(change.allowed_mime_types)}`);
    return (await sql.query(`UPDATE storage.buckets SET ${sets.join(', ')} WHERE id = $1 RETURNING id`, params)).length === 1;
  },

  async deleteBucket(sql: RoleSql, id: string): Promise<boolean> {
    return (await sql.query('DELETE FROM storage.buckets WHERE id = $1 RETURNING id', [id])).length === 1;
  },

  async findObject(sql: RoleSql, bucket: string, name: string, forUpdate = false): Promise<ObjectRow | null> {
    return (await sql.query<ObjectRow>(`SELECT ${OBJECT_COLUMNS} FROM storage.objects WHERE bucket_id = $1 AND name = $2${forUpdate ? ' FOR UPDATE' : ''}`, [bucket, name]))[0] ?? null;
  },

  async insertObject(sql: RoleSql, bucket: string, name: string, version: string, metadata: ObjectMetadata, userMetadata: Record<string, unknown> | null, owner: string | null): Promise<ObjectRow> {
    const rows = await sql.query<ObjectRow>(
      `INSERT INTO storage.objects (bucket_id, name, version, metadata, owner) VALUES ($1, $2, $3, $4::jsonb || coalesce($5::jsonb, '{}'::jsonb), $6) RETURNING ${OBJECT_COLUMNS}`,
      [bucket, name, version, JSON.stringify(metadata), userMetadata === null ? null : JSON.stringify({ userMetadata }), owner],
    );
    return rows[0] as ObjectRow;
  },

  /** null: the row is not one the caller may update (row-level security). */
  async replaceObject(sql: RoleSql, id: string, version: string, metadata: ObjectMetadata, userMetadata: Record<string, unknown> | null): Promise<ObjectRow | null> {
    const rows = await sql.query<ObjectRow>(
      `UPDATE storage.objects SET version = $2, metadata = $3::jsonb || coalesce($4::jsonb, '{}'::jsonb), updated_at = now(), last_accessed_at = now() WHERE id = $1 RETURNING ${OBJECT_COLUMNS}`,
      [id, version, JSON.stringify(metadata), userMetadata === null ? null : JSON.stringify({ userMetadata })],
    );
    return rows[0] ?? null;
  },

  async moveObject(sql: RoleSql, bucket: string, name: string, toBucket: string, toName: string): Promise<boolean> {
    const rows = await sql.query('UPDATE storage.objects SET bucket_id = $3, name = $4, updated_at = now() WHERE bucket_id = $1 AND name = $2 RETURNING id', [bucket, name, toBucket, toName]);
    return rows.length === 1;
  },

  async deleteObjects(sql: RoleSql, bucket: string, names: readonly string[]): Promise<ObjectRow[]> {
    return sql.query<ObjectRow>(`DELETE FROM storage.objects WHERE bucket_id = $1 AND name = ANY($2::text[]) RETURNING ${OBJECT_COLUMNS}`, [bucket, names]);
  },

  async emptyBucket(sql: RoleSql, bucket: string): Promise<string[]> {
    return (await sql.query<{ version: string }>('DELETE FROM storage.objects WHERE bucket_id = $1 RETURNING version', [bucket])).map((r) => r.version);
  },

  /** One folder's entries (storage-js's list): sub-folders (id null) and files, by the options' order. */
  async list(sql: RoleSql, bucket: string, options: ListOptions): Promise<unknown[]> {
    const prefix = options.prefix === '' ? '' : `${options.prefix}/`;
    const order = `${options.sortColumn} ${options.sortOrder}${options.sortColumn === 'name' ? '' : ' NULLS FIRST'}, name ${options.sortOrder}`;
    return sql.query(
      `WITH rows AS (
         SELECT split_part(substr(o.name, char_length($2) + 1), '/', 1) AS item, strpos(substr(o.name, char_length($2) + 1), '/') > 0 AS folder, o.*
         FROM storage.objects o WHERE o.bucket_id = $1 AND left(o.name, char_length($2)) = $2
       ), entries AS (
         SELECT item AS name, NULL::uuid AS id, NULL::timestamptz AS updated_at, NULL::timestamptz AS created_at, NULL::timestamptz AS last_accessed_at, NULL::jsonb AS metadata
           FROM rows WHERE folder GROUP BY item
         UNION ALL
         SELECT item, id, updated_at, created_at, last_accessed_at, metadata - 'userMetadata' FROM rows WHERE NOT folder
       )
       SELECT * FROM entries WHERE $3 = '' OR starts_with(lower(name), lower($3)) ORDER BY ${order} LIMIT $4 OFFSET $5`,
      [bucket, prefix, options.search, options.limit, options.offset],
    );
  },

  /** listV2: names starting with the prefix after the cursor; with the delimiter, one level (folders end in /). */
  async listV2(sql: RoleSql, bucket: string, options: ListV2Options): Promise<{ key: string; folder: boolean; id: string | null; updated_at: string | null; created_at: string | null; metadata: unknown }[]> {
    const cmp = options.sortOrder === 'asc' ? '>' : '<';
    return sql.query(
      `WITH rows AS (
         SELECT o.*, CASE WHEN $4 AND strpos(substr(o.name, char_length($2) + 1), '/') > 0
                     THEN $2 || split_part(substr(o.name, char_length($2) + 1), '/', 1) || '/' ELSE NULL END AS folder_key
         FROM storage.objects o WHERE o.bucket_id = $1 AND left(o.name, char_length($2)) = $2
       ), entries AS (
         SELECT folder_key AS key, true AS folder, NULL::uuid AS id, NULL::timestamptz AS updated_at, NULL::timestamptz AS created_at, NULL::jsonb AS metadata FROM rows WHERE folder_key IS NOT NULL GROUP BY folder_key
         UNION ALL
         SELECT name, false, id, updated_at, created_at, metadata - 'userMetadata' FROM rows WHERE folder_key IS NULL
       )
       SELECT * FROM entries WHERE $3::text IS NULL OR key ${cmp} $3 ORDER BY key ${options.sortOrder} LIMIT $5`,
      [bucket, options.prefix, options.cursor, options.withDelimiter, options.limit + 1],
    );
  },
};
