/** One stored object's bytes and what the store keeps with them. */
export interface StoredObject {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/**
 * Where file bytes live (issue 18: storage for generated apps, and the builder's attachments):
 * the filesystem under DATA_DIR by default, or S3. Metadata (names, owners, buckets, access)
 * is not here: it lives in PostgreSQL, which decides who may reach which key.
 *
 * Keys are object keys (object-key.ts) that Kiln chose; an adapter rejects any other key with
 * InvalidObjectKey before touching anything. A write is atomic: a reader sees the old bytes or
 * the new ones, never a part. Every method rejects when the store cannot be reached.
 */
export interface ObjectStore {
  /** Stores `bytes` at `key`, replacing what was there. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object at `key`, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Copies the object at `from` to `to` (replacing `to`); false when `from` does not exist. */
  copy(from: string, to: string): Promise<boolean>;
  /** Deletes these objects; a key with no object is already deleted. */
  delete(keys: readonly string[]): Promise<void>;
  /** Deletes every object whose key starts with `prefix/` (a bucket emptied, a project deleted). */
  deletePrefix(prefix: string): Promise<void>;
}
