import type { FileTreeEntry } from './sandbox-files.port.js';

/**
 * Whether a file or folder name is left out by an ignore pattern: an exact name at any depth,
 * or '*.ext' for every name ending in '.ext'. One matcher so every SandboxHost adapter (and the
 * in-memory one) hides the same things.
 */
export function matchesTreeIgnore(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.startsWith('*.') ? name.endsWith(pattern.slice(1)) : name === pattern));
}

/** The tree without ignored entries, at every depth. */
export function pruneTree(entries: readonly FileTreeEntry[], patterns: readonly string[]): readonly FileTreeEntry[] {
  return entries
    .filter((entry) => !matchesTreeIgnore(entry.name, patterns))
    .map((entry) => (entry.children === undefined ? entry : { ...entry, children: pruneTree(entry.children, patterns) }));
}
