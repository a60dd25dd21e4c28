import type { DomainError } from '../shared/domain-error.js';
import { err, ok, type Result } from '../shared/result.js';

/**
 * A path inside a sandbox, relative to the project root: no leading slash, no '.' or '..'
 * segments, no empty segments; the root itself is '.'. Only resolveSandboxPath makes one.
 */
export type SandboxPath = string & { readonly __brand: 'SandboxPath' };

export const SANDBOX_ROOT_PATH = '.' as SandboxPath;

/** Longest path we accept (Linux PATH_MAX). */
export const MAX_SANDBOX_PATH_LENGTH = 4096;

export type SandboxPathRefusalReason =
  | 'absolute'
  | 'parent-escape'
  | 'nul-or-control'
  | 'encoded'
  | 'backslash'
  | 'too-long'
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

/**
 * What a SandboxHost adapter throws when a path is refused — by this rule or, after following
 * symlinks on disk, by its own re-check. It carries the coded domain error for the API's mapping.
 */
export class SandboxPathRefused extends Error {
  readonly code = 'SANDBOX.PATH_OUTSIDE';
  constructor(readonly error: SandboxPathOutside) {
    super(error.message);
    this.name = 'SandboxPathRefused';
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
 * percent-encoded dots, slashes, backslashes and percent signs, and backslashes. A '..' that stays
 * inside ('src/../index.html') is folded away. The file system (symlinks) is the adapter's
 * second check.
 */
export function resolveSandboxPath(requested: string): Result<SandboxPath, SandboxPathOutside> {
  if (requested.length > MAX_SANDBOX_PATH_LENGTH) return err(sandboxPathOutside(requested, 'too-long'));
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
