/**
 * Where an ObjectStore keeps one object's bytes. Kiln chooses every key (a project ref, a bucket
 * id, an object's uuid: never the name a person or an app gave the object), so the grammar is
 * narrow on purpose: lower-case ASCII segments, no `.`/`..`, nothing a filesystem or S3 reads
 * specially. Adapters check it again (objectKeyError) before touching anything.
 */
export const OBJECT_KEY_MAX_LENGTH = 512;

const SEGMENT = /^[a-z0-9][a-z0-9_-]*(?:\.[a-z0-9_-]+)*$/;

/** Why `key` is not an object key, or null when it is one. */
export function objectKeyError(key: string): string | null {
  if (typeof key !== 'string' || key.length === 0) return 'an object key is required';
  if (key.length > OBJECT_KEY_MAX_LENGTH) return `an object key is at most ${OBJECT_KEY_MAX_LENGTH} characters`;
  const segments = key.split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) return `"${key.slice(0, 80)}" is not an object key (lower-case letters, digits, - _ and inner dots, per / segment)`;
  }
  return null;
}

export function isObjectKey(key: string): boolean {
  return objectKeyError(key) === null;
}

/** Throws when `key` is not an object key: for adapters, which must never act on another one. */
export function assertObjectKey(key: string): string {
  const error = objectKeyError(key);
  if (error !== null) throw new InvalidObjectKey(error);
  return key;
}

export class InvalidObjectKey extends Error {
  override readonly name = 'InvalidObjectKey';
}

/** Joins segments into a key (each must be a valid segment). */
export function objectKey(...segments: readonly string[]): string {
  return assertObjectKey(segments.join('/'));
}
