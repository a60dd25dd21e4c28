import type { DomainError } from '../shared/domain-error.js';

/**
 * Names the file tree never changes, at any depth: installed packages (a link into the shared
 * dependency cache), git's own folder (hooks there would run), and the package managers' and
 * Kiln's build caches. Kiln manages them; a person changes dependencies through package.json.
 */
export const PROTECTED_NAMES: readonly string[] = Object.freeze(['node_modules', '.git', '.npm', '.pnpm-store', '.kiln-build']);

export type PathProtected = DomainError<'SANDBOX.PATH_PROTECTED'> & { readonly path: string; readonly name: string };

export const pathProtected = (path: string, name: string): PathProtected => ({
  code: 'SANDBOX.PATH_PROTECTED',
  path,
  name,
  message: `${name} is managed by Kiln and cannot be changed from the file tree: ${path}`,
});

/** The protected name a normalised project path goes through, or null. */
export function protectedNameIn(path: string): string | null {
  return path.split('/').find((name) => PROTECTED_NAMES.includes(name)) ?? null;
}
