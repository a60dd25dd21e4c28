import { type Result, err, ok } from '../shared/result.js';
import { type StorageFailure, invalidKey } from './storage.errors.js';

/** Supabase's limit on an object name, in UTF-8 bytes. */
export const OBJECT_NAME_MAX_BYTES = 1024;

/** Bidi overrides and isolates, zero-width characters, the BOM and soft hyphen: names that read as another name. */
const DECEPTIVE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/u;
/** C0 and C1 control characters (NUL included), and DEL. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
/** Lone surrogates (not UTF-8 encodable). */
const LONE_SURROGATE = /\p{Cs}/u;

/** UTF-8 length of a string without lone surrogates (checked before). */
function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * An object's name as stored (SPEC "Upload path: leading and trailing slashes removed, repeated
 * slashes collapsed"), in Unicode NFC. Refused with a clear 400: an empty name, a `.` or `..`
 * segment, NUL and other control characters, bidi overrides and zero-width characters, and names
 * over 1024 UTF-8 bytes.
 */
export function normaliseObjectPath(raw: string): Result<string, StorageFailure> {
  if (typeof raw !== 'string') return err(invalidKey('The object path must be a string'));
  if (CONTROL.test(raw)) return err(invalidKey('The object path must not contain control characters (NUL included)'));
  if (LONE_SURROGATE.test(raw)) return err(invalidKey('The object path is not valid Unicode'));
  if (DECEPTIVE.test(raw)) return err(invalidKey('The object path must not contain bidirectional overrides or zero-width characters'));
  if (raw.includes('\\')) return err(invalidKey('The object path must not contain a backslash'));
  const name = raw.normalize('NFC').replace(/^\/+|\/+$/g, '').replace(/\/{2,}/g, '/');
  if (name === '') return err(invalidKey('The object path is empty'));
  if (name.split('/').some((segment) => segment === '.' || segment === '..')) return err(invalidKey('The object path must not contain "." or ".." segments'));
  if (utf8Length(name) > OBJECT_NAME_MAX_BYTES) return err(invalidKey(`The object path is longer than ${OBJECT_NAME_MAX_BYTES} bytes`));
  return ok(name);
}

/**
 * A list prefix (`list('folder')`): like a path, but it may be empty (the bucket's top level);
 * stored without its trailing slash.
 */
export function normaliseListPrefix(raw: unknown): Result<string, StorageFailure> {
  if (raw === undefined || raw === null || raw === '') return ok('');
  if (typeof raw !== 'string') return err(invalidKey('The prefix must be a string'));
  if (raw.replace(/\//g, '') === '') return ok('');
  return normaliseObjectPath(raw);
}
