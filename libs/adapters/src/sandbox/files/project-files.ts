import { constants, existsSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import {
  type ExportFilesOptions,
  type FileListEntry,
  type ProjectFileBytes,
  type FileTreeEntry,
  MAX_LISTING_CONTENT_BYTES,
  MAX_LISTING_ENTRIES,
  MAX_LISTING_ENTRIES_WITH_CONTENTS,
  MAX_READ_FILE_BYTES,
  matchesTreeIgnore,
  type ReadDirectoryOptions,
  resolveSandboxPath,
  sandboxDiskLimit,
  SandboxLimitReached,
  sandboxLinkLoop,
  SandboxPathRefused,
  sandboxPathTooLong,
  sandboxTooLarge,
  TREE_IGNORE_LIST,
} from '@kiln/domain';
import { entryAt, openFileAt, readBounded, replaceFileAt } from './file-at.js';
import { errnoOf, fdChild, fsError, OPEN_DIRECTORY, OPEN_READ, OPEN_WRITE } from './fd-paths.js';
import { exportCandidates } from './project-export.js';

export { later } from './project-export.js';
import { byTypeThenName, eachEntry, folderSize, folderTree, removeEntry } from './folder-walks.js';
import { type OpenFolder, ProjectWalker } from './project-walker.js';

export interface WriteFileOptions {
  /**
   * The project folder's size limit in bytes (projectSize): a write that would take it over is
   * refused with SANDBOX.DISK_LIMIT, before anything is written. None when undefined.
   */
  readonly maxProjectBytes?: number;
}

/**
 * The file routes of one project folder, none of them raced: the API runs outside any sandbox
 * (as root on CI) while the project's own commands change the folder under it, so no path is
 * checked and then used. Every path is walked from the project folder one name at a time, each
 * opened relative to the folder before it and never through a link (ProjectWalker); reads,
 * writes, removals and listings then work on what was opened. A link the project made is listed
 * as a file, followed only by the walker and only to somewhere inside the project (a link out,
 * such as node_modules into the shared cache, is SANDBOX.PATH_OUTSIDE), and removing one removes
 * the link. Answers are capped (sandbox-limits.ts): over a cap is SANDBOX.TOO_LARGE, and reading
 * stops there. Linux only (/proc/self/fd).
 *
 * Failures keep Node's errno codes the API maps (ENOENT, EISDIR, ENOTDIR, EEXIST; EFTYPE for a
 * FIFO, socket or device, which is never read or written); refusals are SandboxPathRefused or
 * SandboxLimitReached.
 */
export class ProjectFiles {
  /** `projectDir`: the project folder's absolute path, without links in it (the host's own). */
  constructor(private readonly projectDir: string) {}

  async readFile(requested: string): Promise<string> {
    return this.walk(requested, async (walker, names) => {
      let target = names;
      for (;;) {
        const { folder, name } = await walker.parentOf(target);
        try {
          if (name === null) throw fsError('EISDIR', 'the project folder is not a file');
          const file = await openFileAt(folder, name, OPEN_READ);
          if (file === 'link') {
            target = (await walker.follow(folder, name)) ?? target;
            continue;
          }
          try {
            return (await readBounded(file, MAX_READ_FILE_BYTES, 'file-bytes')).toString('utf8');
          } finally {
            await file.close();
          }
        } finally {
          await walker.release(folder);
        }
      }
    });
  }

  /** Creates or replaces the file, creating missing folders; a link in the way is followed inside the project only. */
  async writeFile(requested: string, content: string | Uint8Array, options: WriteFileOptions = {}): Promise<void> {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    await this.walk(requested, async (walker, names) => {
      let target = names;
      for (;;) {
        const { folder, name } = await walker.parentOf(target, { create: true });
        try {
          if (name === null) throw fsError('EISDIR', 'the project folder is not a file');
          const existing = await entryAt(folder, name);
          if (existing?.isSymbolicLink() !== true && options.maxProjectBytes !== undefined) {
            const replaced = existing?.isFile() === true ? existing.size : 0;
            const wouldBe = (await folderSize(walker.root)) - replaced + bytes.length;
            if (wouldBe > options.maxProjectBytes) throw new SandboxLimitReached(sandboxDiskLimit(options.maxProjectBytes, wouldBe));
          }
          if (existing === null || existing.isFile()) {
            // All or nothing: a full disk never leaves half a file (or loses the old one).
            await replaceFileAt(folder, name, bytes, existing?.mode);
            return;
          }
          const file = existing.isSymbolicLink() ? 'link' : await openFileAt(folder, name, OPEN_WRITE, 0o666);
          if (file === 'link') {
            target = (await walker.follow(folder, name)) ?? target;
            continue;
          }
          try {
            // Truncated only now that fstat said it is a regular file (never a device).
            await file.truncate(0);
            await file.writeFile(bytes);
            return;
          } finally {
            await file.close();
          }
        } finally {
          await walker.release(folder);
        }
      }
    });
  }

  /** Removes a file, a link (never what it points to) or a folder with everything in it. */
  async deleteFile(requested: string): Promise<void> {
    await this.walk(requested, async (walker, names) => {
      if (names.length === 0) throw new Error('Refusing to delete the project root');
      const { folder, name } = await walker.parentOf(names);
      try {
        await removeEntry(folder, name as string);
      } finally {
        await walker.release(folder);
      }
    });
  }

  /** A new empty file (missing folders created); a taken name is EEXIST, never replaced (O_EXCL, no link followed). */
  async createFile(requested: string): Promise<void> {
    await this.walk(requested, async (walker, names) => {
      const { folder, name } = await walker.parentOf(names, { create: true });
      try {
        if (name === null) throw fsError('EEXIST', 'the project folder exists');
        const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
        await (await open(fdChild(folder.fd, name), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666)).close();
      } finally {
        await walker.release(folder);
      }
    });
  }

  /**
   * Renames a file, a link (never what it points to) or a folder to a free name; missing folders
   * of `to` are created. Both parents are walked race-free; a name taken between the check and the
   * rename is replaced (Node has no RENAME_NOREPLACE), which stays inside the project.
   */
  async movePath(from: string, to: string): Promise<void> {
    const target = resolveSandboxPath(to);
    if (!target.ok) throw new SandboxPathRefused(target.error);
    const toNames = target.value === '.' ? [] : target.value.split('/');
    await this.walk(from, async (walker, fromNames) => {
      if (fromNames.length === 0 || toNames.length === 0) throw new Error('Refusing to move the project root');
      const source = await walker.parentOf(fromNames);
      try {
        const destination = await walker.parentOf(toNames, { create: true });
        try {
          if ((await entryAt(source.folder, source.name as string)) === null) throw fsError('ENOENT', `${from}: nothing to move`);
          if ((await entryAt(destination.folder, destination.name as string)) !== null) throw fsError('EEXIST', `${to}: the name is taken`);
          await rename(fdChild(source.folder.fd, source.name as string), fdChild(destination.folder.fd, destination.name as string));
        } finally {
          await walker.release(destination.folder);
        }
      } finally {
        await walker.release(source.folder);
      }
    });
  }

  /**
   * The files an export takes (project-export.ts), read one by one race-free: a file that became
   * a link or went away meanwhile is skipped; one that grew past what is left of the cap rejects.
   */
  async *exportFiles(options: ExportFilesOptions): AsyncIterable<ProjectFileBytes> {
    const candidates = await this.walk('.', (walker) => exportCandidates(walker.root, options));
    let budget = options.maxBytes;
    for (const { path } of candidates) {
      const bytes = await this.walk(path, async (walker, names) => {
        const { folder, name } = await walker.parentOf(names);
        try {
          const file = await openFileAt(folder, name as string, OPEN_READ).catch((e: unknown) => (errnoOf(e) === 'ENOENT' ? null : Promise.reject(e)));
          if (file === null || file === 'link') return null;
          try {
            return await readBounded(file, budget, 'export-bytes', options.maxBytes);
          } finally {
            await file.close();
          }
        } finally {
          await walker.release(folder);
        }
      });
      if (bytes === null) continue;
      budget -= bytes.length;
      yield { path, bytes };
    }
  }

  /** mkdir -p: an existing folder is fine; a file in the way is EEXIST (the last name) or ENOTDIR. */
  async createDirectory(requested: string): Promise<void> {
    await this.walk(requested, async (walker, names) => {
      await walker.release(await walker.openFolder(names, { create: true }));
    });
  }

  /**
   * The folder's entries, folders first, then by name; links are files (without contents). With
   * contents: at most MAX_LISTING_ENTRIES_WITH_CONTENTS entries and MAX_LISTING_CONTENT_BYTES of
   * files together; without: MAX_LISTING_ENTRIES entries.
   */
  async readDirectory(requested: string, options: ReadDirectoryOptions = {}): Promise<readonly FileListEntry[]> {
    const withContents = options.includeContents === true;
    const maxEntries = withContents ? MAX_LISTING_ENTRIES_WITH_CONTENTS : MAX_LISTING_ENTRIES;
    const ignore = options.ignorePatterns ?? [];
    return this.inFolder(requested, async (folder) => {
      const found: { name: string; directory: boolean; file: boolean }[] = [];
      await eachEntry(folder, (e) => {
        if (matchesTreeIgnore(e.name, ignore)) return;
        if (found.length === maxEntries) throw new SandboxLimitReached(sandboxTooLarge('listing-entries', maxEntries));
        found.push({ name: e.name, directory: e.isDirectory(), file: e.isFile() });
      });
      found.sort(byTypeThenName);
      const out: FileListEntry[] = [];
      let budget = MAX_LISTING_CONTENT_BYTES;
      for (const e of found) {
        const type = e.directory ? ('directory' as const) : ('file' as const);
        if (!withContents || !e.file) {
          out.push({ name: e.name, type });
          continue;
        }
        const content = await this.contentFor(folder, e.name, budget);
        if (content === 'gone') continue;
        if (content === null) {
          out.push({ name: e.name, type });
          continue;
        }
        budget -= content.bytes;
        out.push({ name: e.name, type, content: content.text });
      }
      return out;
    });
  }

  /** The tree below the folder (getTree); see folderTree for its caps. */
  async getTree(requested: string, ignore: readonly string[] = TREE_IGNORE_LIST): Promise<readonly FileTreeEntry[]> {
    return this.inFolder(requested, (folder) => folderTree(folder, ignore));
  }

  /** The project folder's size in bytes (see folderSize): no link followed, node_modules' tree not counted. */
  async size(): Promise<number> {
    return this.walk('.', (walker) => folderSize(walker.root));
  }

  /** A listed file's text within what is left of the budget; null to list it without (it became a link or special), 'gone' when removed meanwhile. */
  private async contentFor(folder: OpenFolder, name: string, budget: number): Promise<{ text: string; bytes: number } | null | 'gone'> {
    let file;
    try {
      file = await openFileAt(folder, name, OPEN_READ);
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOENT') return 'gone';
      if (code === 'EISDIR' || code === 'EFTYPE') return null;
      throw e;
    }
    if (file === 'link') return null;
    try {
      const bytes = await readBounded(file, Math.min(budget, MAX_READ_FILE_BYTES), 'listing-bytes', MAX_LISTING_CONTENT_BYTES);
      return { text: bytes.toString('utf8'), bytes: bytes.length };
    } finally {
      await file.close();
    }
  }

  private async inFolder<T>(requested: string, work: (folder: OpenFolder) => Promise<T>): Promise<T> {
    return this.walk(requested, async (walker, names) => {
      const folder = await walker.openFolder(names);
      try {
        return await work(folder);
      } finally {
        await walker.release(folder);
      }
    });
  }

  /**
   * Checks the path with the domain rule, opens the project folder and hands a walker over it to
   * `work`. What the system says about the path itself becomes a coded refusal: a name too long
   * for it (PATH_TOO_LONG) or a loop (LINK_LOOP), never a 500.
   */
  private async walk<T>(requested: string, work: (walker: ProjectWalker, names: readonly string[]) => Promise<T>): Promise<T> {
    const resolved = resolveSandboxPath(requested);
    if (!resolved.ok) throw new SandboxPathRefused(resolved.error);
    if (!PROC_FDS) throw new Error('File routes need /proc/self/fd (Linux with /proc mounted)');
    const names = resolved.value === '.' ? [] : resolved.value.split('/');
    const root = await open(this.projectDir, OPEN_DIRECTORY);
    try {
      return await work(new ProjectWalker(root.fd, this.projectDir, requested), names);
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENAMETOOLONG') throw new SandboxPathRefused(sandboxPathTooLong(requested, 'name'));
      if (code === 'ELOOP') throw new SandboxPathRefused(sandboxLinkLoop(requested));
      throw e;
    } finally {
      await root.close();
    }
  }
}

/** The project folder's size in bytes, walked race-free (see ProjectFiles.size). */
export function projectSize(projectDir: string): Promise<number> {
  return new ProjectFiles(projectDir).size();
}

const PROC_FDS = existsSync('/proc/self/fd');
