import { matchesTreeIgnore } from '../sandbox/tree-ignore.js';

/**
 * What "Clean up" removes (issue #17 item 8): build output and tool caches at the project's top
 * level, all of them left out of saved versions (VERSION_EXCLUDES) and made again by the next
 * build or command. Never the person's files, never installed packages (node_modules), never the
 * database connection (.env.local). The dev server is then restarted, which stops its processes.
 */
export const CLEAN_UP_NAMES: readonly string[] = Object.freeze([
  'dist',
  '.kiln-build',
  '.cache',
  '.npm',
  '.pnpm-store',
  '.eslintcache',
  '*.tsbuildinfo',
  'npm-debug.log',
  'yarn-error.log',
]);

/** Whether a top-level entry is something Clean up removes. */
export function isCleanedUp(name: string): boolean {
  return matchesTreeIgnore(name, CLEAN_UP_NAMES);
}
