import type { DomainError } from '../shared/domain-error.js';
import { err, ok, type Result } from '../shared/result.js';

/**
 * A path inside a sandbox, relative to the project root: no leading slash, no '.' or '..'
 * segments, no empty segments; the root itself is '.'. Only resolveSandboxPath makes one.
 */
export type SandboxPath = string & { readonly __brand: 'SandboxPath' };

export const SANDBOX_ROOT_PATH = '.' as SandboxPath;

/**
 * Longest path a request may carry at all (Linux PATH_MAX); longer is a malformed request
 * (VALIDATION_FAILED). The domain rule below is stricter: MAX_PROJECT_PATH_BYTES.
 */
export const MAX_SANDBOX_PATH_LENGTH = 4096;
/**
 * Longest project path the file routes accept, in UTF-8 bytes (SANDBOX.PATH_TOO_LONG beyond):
 * far more than any real project needs, and short enough that the project folder's own path plus
 * this one stays under PATH_MAX for git and the tools run on the project.
 */
export const MAX_PROJECT_PATH_BYTES = 1024;
/** Longest file or folder name, in UTF-8 bytes (Linux NAME_MAX). */
export const MAX_PROJECT_NAME_BYTES = 255;

export type SandboxPathRefusalReason =
  | 'absolute'
  | 'parent-escape'
  | 'nul-or-control'
  | 'encoded'
  | 'backslash'
  | 'symlink-outside';

/** The requested path would leave the project directory (the API answers 400). */
export type SandboxPathOutside = DomainError<'SANDBOX.PATH_OUTSIDE'> & {
  readonly path: string;
  readonly reason: SandboxPathRefusalReason;
};

export const sandboxPathOutside = (path: string, reason: SandboxPathRefusalReason): SandboxPathOutside => ({
  code: 'SANDBOX.PATH_OUTSIDE',
  path,
  reason,
  message: `Path is outside the project: ${JSON.stringify(path)}`,
});

/** The path, or one of its names, is longer than the project allows (the API answers 400). */
export type SandboxPathTooLong = DomainError<'SANDBOX.PATH_TOO_LONG'> & {
  readonly path: string;
  /** Which limit: the whole path (MAX_PROJECT_PATH_BYTES) or one name (MAX_PROJECT_NAME_BYTES). */
  readonly part: 'path' | 'name';
  readonly limitBytes: number;
};

export const sandboxPathTooLong = (path: string, part: 'path' | 'name'): SandboxPathTooLong => {
  const limitBytes = part === 'path' ? MAX_PROJECT_PATH_BYTES : MAX_PROJECT_NAME_BYTES;
  return {
    code: 'SANDBOX.PATH_TOO_LONG',
    path: shortened(path),
    part,
    limitBytes,
    message:
      part === 'path'
        ? `Path is too long: at most ${limitBytes} bytes`
        : `A file or folder name in the path is too long: at most ${limitBytes} bytes`,
  };
};

/**
 * Following the project's own symbolic links went round in a loop, or through more links than a
 * path resolution may (MAX_LINK_HOPS, as Linux's 40): the API answers 400.
 */
export type SandboxLinkLoop = DomainError<'SANDBOX.LINK_LOOP'> & { readonly path: string };

/** Links followed for one path at most (Linux's MAXSYMLINKS). */
export const MAX_LINK_HOPS = 40;

export const sandboxLinkLoop = (path: string): SandboxLinkLoop => ({
  code: 'SANDBOX.LINK_LOOP',
  path: shortened(path),
  message: `Path goes round a loop of symbolic links: ${JSON.stringify(shortened(path))}`,
});

/** Every reason a path is refused before anything is read or written. */
export type SandboxPathError = SandboxPathOutside | SandboxPathTooLong | SandboxLinkLoop;

/**
 * What a SandboxHost adapter throws when a path is refused — by this rule or while it walks the
 * path on disk (a link out of the project, a link loop). It carries the coded domain error for
 * the API's mapping; `code` is the error's.
 */
export class SandboxPathRefused extends Error {
  readonly code: SandboxPathError['code'];
  constructor(readonly error: SandboxPathError) {
    super(error.message);
    this.name = 'SandboxPathRefused';
    this.code = error.code;
  }
}

// Percent-encodings of '.', '/', '\', '%' and NUL: a later decoding step must never create a
// traversal, so they are refused rather than decoded.
const ENCODED = /%(2e|2f|5c|25|00)/i;
// C0 controls and DEL, NUL included.
const CONTROL = /[\u0000-\u001f\u007f]/;
const DRIVE = /^[A-Za-z]:/;
const DOTS_ONLY = /^\.{3,}$/;

/**
 * Resolves a requested path (as a client sends it) inside the project root. Refuses absolute
 * paths ('/x', '~/x', 'C:x'), '..' that would climb above the root, names made only of dots
 * ('....//'), NUL and control characters,
 * percent-encoded dots, slashes, backslashes and percent signs, and backslashes (all
 * SANDBOX.PATH_OUTSIDE), and paths over MAX_PROJECT_PATH_BYTES or with a name over
 * MAX_PROJECT_NAME_BYTES (SANDBOX.PATH_TOO_LONG). A '..' that stays inside ('src/../index.html')
 * is folded away. The file system (symlinks) is the adapter's second check.
 */
export function resolveSandboxPath(requested: string): Result<SandboxPath, SandboxPathOutside | SandboxPathTooLong> {
  // Each UTF-16 unit is 1 to 3 bytes in UTF-8: count only when the length alone cannot tell.
  if (requested.length > MAX_PROJECT_PATH_BYTES || (requested.length * 3 > MAX_PROJECT_PATH_BYTES && utf8Length(requested) > MAX_PROJECT_PATH_BYTES)) {
    return err(sandboxPathTooLong(requested, 'path'));
  }
  if (CONTROL.test(requested)) return err(sandboxPathOutside(requested, 'nul-or-control'));
  if (requested.includes('\\')) return err(sandboxPathOutside(requested, 'backslash'));
  if (ENCODED.test(requested)) return err(sandboxPathOutside(requested, 'encoded'));
  if (requested.startsWith('/') || requested.startsWith('~') || DRIVE.test(requested)) {
    return err(sandboxPathOutside(requested, 'absolute'));
  }
  const segments: string[] = [];
  for (const segment of requested.split('/')) {
    if (segment === '' || segment === '.') continue;
    // A name made only of dots ('...', '....'): no real file is called that, and a layer that
    // strips '../' or '..' would turn '....//' into '../'.
    if (DOTS_ONLY.test(segment)) return err(sandboxPathOutside(requested, 'parent-escape'));
    if (segment.length * 3 > MAX_PROJECT_NAME_BYTES && utf8Length(segment) > MAX_PROJECT_NAME_BYTES) {
      return err(sandboxPathTooLong(requested, 'name'));
    }
    if (segment === '..') {
      if (segments.length === 0) return err(sandboxPathOutside(requested, 'parent-escape'));
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  // After folding, the path must still not start like an absolute one ('./~', 'a/../C:').
  const first = segments[0] ?? '';
  if (first.startsWith('~') || DRIVE.test(first)) return err(sandboxPathOutside(requested, 'absolute'));
  return ok((segments.length === 0 ? '.' : segments.join('/')) as SandboxPath);
}

/** Bytes of `text` in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Errors echo the path back; a refused 4 kB path is cut so the answer stays small. */
function shortened(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/**
 * Whether `target` is `root` or below it; both absolute POSIX paths already resolved on disk
 * (realpath). Adapters call it after following symlinks.
 */
export function isWithinRoot(root: string, target: string): boolean {
  const base = root.endsWith('/') ? root.slice(0, -1) : root;
  return target === base || target.startsWith(`${base}/`);
}

/** A sandbox id becomes a folder name: letters, digits, '-' and '_', starting with a letter or digit. */
const SANDBOX_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isValidSandboxId(id: string): boolean {
  return SANDBOX_ID.test(id);
}
