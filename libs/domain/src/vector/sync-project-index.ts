import type { ProjectFile } from '../ai/ai-assistant.port.js';
import type { FileTreeEntry, SandboxFiles } from '../sandbox/sandbox-files.port.js';
import { comparePaths, indexSkipReason, isIgnoredForIndex, isRemovedBy } from './chunking.js';
import { resolveSandboxPath } from '../sandbox/sandbox-path.js';
import type { VectorIndex } from './vector-index.port.js';

/** How many files are read from the sandbox at once. */
export const INDEX_READ_CONCURRENCY = 8;

/**
 * A file or folder to index. With `content` it is indexed as given; without, it is read from the
 * project's sandbox — a folder (or '.') stands for every file under it.
 */
export interface IndexEntry {
  readonly path: string;
  readonly content?: string;
  readonly type?: 'file' | 'directory';
}

export interface IndexReport {
  /** Files handed to the index that it keeps (not skipped by indexSkipReason). */
  readonly indexed: number;
  /** Files handed to the index that it leaves out (ignored, binary, too large). */
  readonly skipped: number;
  /** Paths dropped from the index: removed, no longer in the sandbox, or folders re-read whole. */
  readonly removed: readonly string[];
  /** Paths that were refused (leaving the project) and did nothing. */
  readonly refused: readonly string[];
}

/** Every file path under these tree entries, depth first. */
export function treeFilePaths(entries: readonly FileTreeEntry[]): string[] {
  const paths: string[] = [];
  const walk = (list: readonly FileTreeEntry[]) => {
    for (const entry of list) {
      if (entry.type === 'file') paths.push(entry.path);
      else walk(entry.children ?? []);
    }
  };
  walk(entries);
  return paths;
}

/** Every folder path under these tree entries. */
function treeFolderPaths(entries: readonly FileTreeEntry[]): Set<string> {
  const paths = new Set<string>();
  const walk = (list: readonly FileTreeEntry[]) => {
    for (const entry of list) {
      if (entry.type !== 'directory') continue;
      paths.add(entry.path);
      walk(entry.children ?? []);
    }
  };
  walk(entries);
  return paths;
}

/** Runs `work` over the items with at most `limit` at a time; results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next;
      next += 1;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface Resolved {
  readonly files: ProjectFile[];
  /** Paths to drop before the files go in: missing ones and folders read whole. */
  readonly removed: string[];
  readonly refused: string[];
}

/**
 * Keeps a project's VectorIndex in step with its sandbox: whole reindexes, the files a write
 * changed, and reindex requests whose files come with or without their text. Reads go through
 * the sandbox's files (the tree first, so a path is known to be a file, a folder or gone); a file
 * that cannot be read counts as gone. Rejects when the sandbox or the index fails.
 *
 * Not serialised: two calls for one project may read and write in either order; the API's
 * ProjectIndexer queues them per project.
 */
export class SyncProjectIndex {
  constructor(
    private readonly sandbox: SandboxFiles,
    private readonly index: VectorIndex,
  ) {}

  /** Replaces the project's index with the sandbox's files (the tree ignore list applied). */
  reindexAll(projectId: string): Promise<IndexReport> {
    return this.fullReindex(projectId, [{ path: '.', type: 'directory' }]);
  }

  /** Replaces the project's index with these entries' files. */
  async fullReindex(projectId: string, entries: readonly IndexEntry[]): Promise<IndexReport> {
    const resolved = await this.resolve(projectId, entries);
    await this.index.fullReindex(projectId, resolved.files);
    return report(resolved.files, [], resolved.refused);
  }

  /**
   * Re-indexes these entries' files and drops `removed` (files or folders). An entry without
   * text that is no longer in the sandbox is dropped too; a folder is re-read whole (files gone
   * from it leave the index).
   */
  async partialReindex(projectId: string, entries: readonly IndexEntry[], removed: readonly string[] = []): Promise<IndexReport> {
    const resolved = await this.resolve(projectId, entries);
    const refused = [...resolved.refused];
    const drop = new Set(resolved.removed);
    for (const path of removed) {
      const normal = resolveSandboxPath(path);
      if (normal.ok) drop.add(normal.value);
      else refused.push(path);
    }
    const dropped = [...drop].sort(comparePaths);
    await this.index.partialReindex(projectId, resolved.files, dropped);
    return report(resolved.files, dropped, refused);
  }

  /**
   * After files were written or deleted (paths as the sandbox reported them): each path is read
   * again — a file, a folder (every file under it) or gone (dropped). No paths means "anything
   * may have changed" (a command, a restore): the whole project is reindexed.
   */
  indexChanged(projectId: string, paths: readonly string[]): Promise<IndexReport> {
    const isRoot = (path: string) => {
      const normal = resolveSandboxPath(path);
      return normal.ok && normal.value === '.';
    };
    if (paths.length === 0 || paths.some(isRoot)) return this.reindexAll(projectId);
    return this.partialReindex(
      projectId,
      paths.map((path) => ({ path })),
    );
  }

  private async resolve(projectId: string, entries: readonly IndexEntry[]): Promise<Resolved> {
    const given = new Map<string, string>();
    const toRead = new Set<string>();
    const removed = new Set<string>();
    const refused: string[] = [];
    let tree: { files: string[]; fileSet: Set<string>; folders: Set<string> } | null = null;
    const loadTree = async () => {
      if (tree === null) {
        const entriesOnDisk = await this.sandbox.getTree(projectId, '.');
        const files = treeFilePaths(entriesOnDisk);
        tree = { files, fileSet: new Set(files), folders: treeFolderPaths(entriesOnDisk) };
      }
      return tree;
    };

    for (const entry of entries) {
      const normal = resolveSandboxPath(entry.path);
      if (!normal.ok) {
        refused.push(entry.path);
        continue;
      }
      const path = normal.value;
      if (entry.content !== undefined && entry.type !== 'directory' && path !== '.') {
        given.set(path, entry.content);
        toRead.delete(path);
        continue;
      }
      const { files, fileSet, folders } = await loadTree();
      if (path === '.' || folders.has(path) || entry.type === 'directory') {
        removed.add(path);
        for (const file of files) if (isRemovedBy(file, path) && !given.has(file)) toRead.add(file);
      } else if (fileSet.has(path)) {
        if (!given.has(path)) toRead.add(path);
      } else {
        removed.add(path);
      }
    }

    const readable = [...toRead].filter((path) => !isIgnoredForIndex(path)).sort(comparePaths);
    const contents = await mapLimited(readable, INDEX_READ_CONCURRENCY, async (path) => {
      try {
        return await this.sandbox.readFile(projectId, path);
      } catch {
        return null;
      }
    });
    const files: ProjectFile[] = [...given].map(([path, content]) => ({ path, content }));
    readable.forEach((path, i) => {
      const content = contents[i];
      if (content === null || content === undefined) removed.add(path);
      else files.push({ path, content });
    });
    files.sort((a, b) => comparePaths(a.path, b.path));
    return { files, removed: [...removed], refused };
  }
}

function report(files: readonly ProjectFile[], removed: readonly string[], refused: readonly string[]): IndexReport {
  const indexed = files.filter((file) => indexSkipReason(file) === null).length;
  return { indexed, skipped: files.length - indexed, removed, refused };
}
