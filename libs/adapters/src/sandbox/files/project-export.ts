import { type ExportFilesOptions, matchesTreeIgnore, resolveSandboxPath, SandboxLimitReached, sandboxTooLarge } from '@kiln/domain';
import { entryAt } from './file-at.js';
import { eachEntry, openSubfolder } from './folder-walks.js';
import type { OpenFolder } from './project-walker.js';

/** One file an export will read: its project path and the size the listing saw. */
export interface ExportCandidate {
  readonly path: string;
  readonly size: number;
}

/** Folders deeper than this are not exported (as the tree's own depth cap). */
const MAX_EXPORT_DEPTH = 256;

/**
 * The regular files below `root` an export takes, sorted by path: excluded names (at any depth)
 * and links are skipped, never followed; so are names a zip cannot carry safely (those the domain's
 * path rule refuses: backslashes, control characters, encoded dots). Over `maxBytes` together it
 * rejects SANDBOX.TOO_LARGE before anything is read.
 */
export async function exportCandidates(root: OpenFolder, options: ExportFilesOptions): Promise<ExportCandidate[]> {
  const found: ExportCandidate[] = [];
  let total = 0;
  const walk = async (folder: OpenFolder, depth: number): Promise<void> => {
    if (depth > MAX_EXPORT_DEPTH) throw new SandboxLimitReached(sandboxTooLarge('tree-depth', MAX_EXPORT_DEPTH));
    const folders: string[] = [];
    const files: string[] = [];
    const prefix = folder.names.length === 0 ? '' : `${folder.names.join('/')}/`;
    await eachEntry(folder, (entry) => {
      if (matchesTreeIgnore(entry.name, options.exclude)) return;
      const safe = resolveSandboxPath(`${prefix}${entry.name}`);
      if (!safe.ok || safe.value !== `${prefix}${entry.name}`) return;
      if (entry.isDirectory()) folders.push(entry.name);
      else if (entry.isFile()) files.push(entry.name);
    });
    for (const name of files) {
      const info = await entryAt(folder, name);
      if (info === null || !info.isFile()) continue; // changed meanwhile: a link or gone
      total += info.size;
      if (total > options.maxBytes) throw new SandboxLimitReached(sandboxTooLarge('export-bytes', options.maxBytes));
      found.push({ path: `${prefix}${name}`, size: info.size });
    }
    for (const name of folders) {
      const sub = await openSubfolder(folder, name);
      if (sub === null) continue;
      try {
        await walk(sub, depth + 1);
      } finally {
        await sub.handle?.close();
      }
    }
  };
  await walk(root, 0);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** An iterable made once it is first iterated (a host resolves the sandbox's folder first). */
export async function* later<T>(make: () => Promise<AsyncIterable<T>>): AsyncIterable<T> {
  yield* await make();
}
