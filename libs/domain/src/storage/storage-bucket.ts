import { type Result, err, ok } from '../shared/result.js';
import { type StorageFailure, invalidRequest } from './storage.errors.js';

/** SPEC entity "Storage bucket". */
export interface StorageBucket {
  readonly id: string;
  readonly name: string;
  readonly public: boolean;
  /** Bytes; null: only the global cap. */
  readonly file_size_limit: number | null;
  /** `image/png`, `image/*`; null: any type. */
  readonly allowed_mime_types: readonly string[] | null;
}

/** A bucket id (also its name): Supabase's rule, without `/` and the characters a URL or a key reads specially. */
const BUCKET_ID = /^[A-Za-z0-9_][A-Za-z0-9 _.-]{0,62}$/;
/** `type/subtype` or `type/*` (RFC 6838 token characters), lower-cased when stored. */
const MIME_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;
const MAX_MIME_TYPES = 100;

/** Words the routes read after `/object/` (`/object/public/…`, `/object/sign/…`): a bucket named so could not be reached. */
export const RESERVED_BUCKET_IDS: readonly string[] = ['public', 'authenticated', 'sign', 'upload', 'info', 'list', 'list-v2', 'move', 'copy'];

export function bucketIdError(id: unknown): string | null {
  if (typeof id !== 'string' || !BUCKET_ID.test(id) || id === '.' || id === '..' || id.endsWith(' ')) {
    return 'Bucket name invalid: 1 to 63 letters, digits, spaces, and - _ . (not starting with . or -)';
  }
  return null;
}

/** For a new bucket: a valid id that is not one of the route words. */
export function newBucketIdError(id: unknown): string | null {
  const error = bucketIdError(id);
  if (error !== null) return error;
  return RESERVED_BUCKET_IDS.includes((id as string).toLowerCase()) ? `Bucket name invalid: "${id as string}" is reserved (${RESERVED_BUCKET_IDS.join(', ')})` : null;
}

/** `1048576`, `"1048576"`, `"5mb"`, `"100KB"`, `"1gb"` (storage-js passes fileSizeLimit as it was given). */
export function parseFileSizeLimit(value: unknown, globalMax: number): Result<number | null, StorageFailure> {
  if (value === undefined || value === null || value === '') return ok(null);
  let bytes: number;
  if (typeof value === 'number') bytes = value;
  else if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value);
    if (m === null) return err(invalidRequest('file_size_limit must be a number of bytes or a size like "5MB"'));
    const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
    bytes = Math.floor(Number(m[1]) * unit);
  } else return err(invalidRequest('file_size_limit must be a number of bytes or a size like "5MB"'));
  if (!Number.isSafeInteger(bytes) || bytes <= 0) return err(invalidRequest('file_size_limit must be a positive whole number of bytes'));
  if (bytes > globalMax) return err(invalidRequest(`file_size_limit may be at most ${globalMax} bytes (the global limit)`));
  return ok(bytes);
}

export function parseAllowedMimeTypes(value: unknown): Result<readonly string[] | null, StorageFailure> {
  if (value === undefined || value === null) return ok(null);
  if (!Array.isArray(value)) return err(invalidRequest('allowed_mime_types must be a list of MIME types'));
  if (value.length > MAX_MIME_TYPES) return err(invalidRequest(`allowed_mime_types has at most ${MAX_MIME_TYPES} entries`));
  const out: string[] = [];
  for (const item of value) {
    const mime = typeof item === 'string' ? item.trim().toLowerCase() : '';
    if (!MIME_PATTERN.test(mime)) return err(invalidRequest(`"${String(item).slice(0, 100)}" is not a MIME type (type/subtype or type/*)`));
    if (!out.includes(mime)) out.push(mime);
  }
  return ok(out.length === 0 ? null : out);
}

/** The bucket a create (`POST /bucket`) asks for; `name` defaults to the id and must equal it. */
export function parseBucketCreate(body: unknown, globalMax: number): Result<StorageBucket, StorageFailure> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return err(invalidRequest('The body must be a JSON object'));
  const b = body as Record<string, unknown>;
  const id = b['id'] ?? b['name'];
  const idError = newBucketIdError(id);
  if (idError !== null) return err(invalidRequest(idError));
  if (b['name'] !== undefined && b['name'] !== id) return err(invalidRequest('A bucket’s name is its id'));
  const update = parseBucketUpdate(b, globalMax);
  if (!update.ok) return update;
  return ok({ id: id as string, name: id as string, public: update.value.public ?? false, file_size_limit: update.value.file_size_limit ?? null, allowed_mime_types: update.value.allowed_mime_types ?? null });
}

export interface BucketChange {
  readonly public?: boolean;
  readonly file_size_limit?: number | null;
  readonly allowed_mime_types?: readonly string[] | null;
}

/** What an update (`PUT /bucket/{id}`) changes: only the fields given. */
export function parseBucketUpdate(body: unknown, globalMax: number): Result<BucketChange, StorageFailure> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return err(invalidRequest('The body must be a JSON object'));
  const b = body as Record<string, unknown>;
  const change: { public?: boolean; file_size_limit?: number | null; allowed_mime_types?: readonly string[] | null } = {};
  if (b['public'] !== undefined) {
    if (typeof b['public'] !== 'boolean') return err(invalidRequest('public must be true or false'));
    change.public = b['public'];
  }
  if ('file_size_limit' in b && b['file_size_limit'] !== undefined) {
    const limit = parseFileSizeLimit(b['file_size_limit'], globalMax);
    if (!limit.ok) return limit;
    change.file_size_limit = limit.value;
  }
  if ('allowed_mime_types' in b && b['allowed_mime_types'] !== undefined) {
    const types = parseAllowedMimeTypes(b['allowed_mime_types']);
    if (!types.ok) return types;
    change.allowed_mime_types = types.value;
  }
  return ok(change);
}

/** The MIME type of a Content-Type value (`text/plain;charset=UTF-8` → `text/plain`), lower-cased. */
export function mimeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** Whether a bucket takes this content type: no list takes anything; `image/*` takes every image. */
export function mimeAllowed(contentType: string, allowed: readonly string[] | null): boolean {
  if (allowed === null || allowed.length === 0) return true;
  const mime = mimeOf(contentType);
  return allowed.some((pattern) => pattern === mime || (pattern.endsWith('/*') && mime.startsWith(pattern.slice(0, -1))));
}
