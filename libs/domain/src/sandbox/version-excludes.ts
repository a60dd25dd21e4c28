/**
 * What a saved version never holds, in .gitignore syntax (a host with git writes them into the
 * repository's exclude file): installed packages (node_modules is a link into the shared cache),
 * build output, Kiln's build folder, and tool caches and logs a command may leave in the project
 * (npm's `.npm` when HOME was the project, `.cache`, pnpm's store, Yarn's cache, npm's debug logs,
 * eslint's cache, TypeScript's build info).
 */
export const VERSION_EXCLUDES = Object.freeze([
  'node_modules',
  'dist/',
  'build/',
  '.kiln-build/',
  '*.tsbuildinfo',
  '.npm/',
  '.cache/',
  '.pnpm-store/',
  '.yarn/cache/',
  'npm-debug.log*',
  'yarn-error.log*',
  '.eslintcache',
  // The database connection file (Kiln writes it at provisioning): kept by a restore, never in a version.
  '.env.local',
] as const);

/** A .gitignore pattern's name part matched against one name: `*` is any run of characters. */
function nameMatches(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const [first = '', ...rest] = parts;
  const last = rest.pop() ?? '';
  if (!name.startsWith(first) || !name.endsWith(last) || name.length < first.length + last.length) return false;
  let at = first.length;
  for (const middle of rest) {
    const found = name.indexOf(middle, at);
    if (found === -1 || found + middle.length > name.length - last.length) return false;
    at = found + middle.length;
  }
  return true;
}

/**
 * Whether a project file (a project-relative path with `/`) is left out of saved versions by
 * VERSION_EXCLUDES, as git reads them: a pattern without an inner `/` matches a name at any depth
 * (one ending in `/` only a folder, i.e. a name that has more path below it); one with an inner
 * `/` matches from the project root.
 */
export function isExcludedFromVersions(path: string, excludes: readonly string[] = VERSION_EXCLUDES): boolean {
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  return excludes.some((raw) => {
    const folderOnly = raw.endsWith('/');
    const pattern = folderOnly ? raw.slice(0, -1) : raw;
    const steps = pattern.split('/');
    if (steps.length > 1) {
      // Anchored: the first steps name the path's first segments.
      if (segments.length < steps.length + (folderOnly ? 1 : 0)) return false;
      return steps.every((step, i) => nameMatches(step, segments[i] ?? ''));
    }
    const last = folderOnly ? segments.length - 1 : segments.length;
    return segments.slice(0, last).some((segment) => nameMatches(pattern, segment));
  });
}
