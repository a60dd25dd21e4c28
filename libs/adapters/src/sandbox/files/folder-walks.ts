import type { Dirent } from 'node:fs';
import { lstat, open, opendir, rmdir, unlink } from 'node:fs/promises';
import {
  type FileTreeEntry,
  MAX_TREE_BYTES,
  MAX_TREE_DEPTH,
  MAX_TREE_ENTRIES,
  matchesTreeIgnore,
  SandboxLimitReached,
  sandboxTooLarge,
  utf8Length,
} from '@kiln/domain';
import { errnoOf, fdChild, fdSelf, OPEN_DIRECTORY } from './fd-paths.js';
import type { OpenFolder } from './project-walker.js';

/*
 * Walks below an open folder, every name relative to the folder open before it and never through
 * a link: a link is an entry like a file (listed, counted by its own size, removed itself). One
 * descriptor per level is open at a time, so the depth is capped (MAX_TREE_DEPTH).
 */

/** Visits the entries of `folder` one at a time, as the system lists them (memory does not grow with the folder). */
export async function eachEntry(folder: OpenFolder, visit: (entry: Dirent) => void | 'stop' | Promise<void>): Promise<void> {
  const dir = await opendir(fdSelf(folder.fd), { bufferSize: 128 });
  try {
    for (let entry = await dir.read(); entry !== null; entry = await dir.read()) {
      if ((await visit(entry)) === 'stop') return;
    }
  } finally {
    await dir.close().catch(() => undefined); // already closed when the iteration ended it
  }
}

/** `name` in `folder` opened as a folder, or null when it is not one (any more): a link, a file, gone. */
export async function openSubfolder(folder: OpenFolder, name: string): Promise<OpenFolder | null> {
  try {
    const handle = await open(fdChild(folder.fd, name), OPEN_DIRECTORY);
    return { fd: handle.fd, names: [...folder.names, name], handle };
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENOENT') return null;
    throw e;
  }
}

function checkDepth(depth: number): void {
  if (depth > MAX_TREE_DEPTH) throw new SandboxLimitReached(sandboxTooLarge('tree-depth', MAX_TREE_DEPTH));
}

/**
 * The tree below `start` (folders first, then by name), with project-relative paths. Over
 * MAX_TREE_ENTRIES entries or MAX_TREE_BYTES of names and paths it rejects SANDBOX.TOO_LARGE as
 * soon as it counts one too many.
 */
export async function folderTree(start: OpenFolder, ignore: readonly string[]): Promise<FileTreeEntry[]> {
  let entries = 0;
  let bytes = 0;
  const walk = async (folder: OpenFolder, depth: number): Promise<FileTreeEntry[]> => {
    checkDepth(depth);
    const prefix = folder.names.length === 0 ? '' : `${folder.names.join('/')}/`;
    const found: { name: string; directory: boolean }[] = [];
    await eachEntry(folder, (e) => {
      if (matchesTreeIgnore(e.name, ignore)) return;
      if (++entries > MAX_TREE_ENTRIES) throw new SandboxLimitReached(sandboxTooLarge('tree-entries', MAX_TREE_ENTRIES));
      bytes += utf8Length(e.name) * 2 + utf8Length(prefix);
      if (bytes > MAX_TREE_BYTES) throw new SandboxLimitReached(sandboxTooLarge('tree-bytes', MAX_TREE_BYTES));
      // Links are listed as files and never followed.
      found.push({ name: e.name, directory: e.isDirectory() });
    });
    found.sort(byTypeThenName);
    const out: FileTreeEntry[] = [];
    for (const e of found) {
      const path = `${prefix}${e.name}`;
      const sub = e.directory ? await openSubfolder(folder, e.name) : null;
      if (sub === null) {
        out.push({ name: e.name, type: 'file', path });
        continue;
      }
      try {
        out.push({ name: e.name, type: 'directory', path, children: await walk(sub, depth + 1) });
      } finally {
        await sub.handle?.close();
      }
    }
    return out;
  };
  return walk(start, 0);
}

/**
 * The bytes below `folder`: every entry's own size (a file's length, a link's text, a folder's
 * entries), never what a link points to — the node_modules link into the shared cache counts
 * for its few bytes only.
 */
export async function folderSize(folder: OpenFolder, depth = 0): Promise<number> {
  checkDepth(depth);
  let total = 0;
  await eachEntry(folder, async (e) => {
    const info = await lstat(fdChild(folder.fd, e.name)).catch((l: unknown) => {
      if (errnoOf(l) === 'ENOENT') return null; // removed meanwhile
      throw l;
    });
    if (info === null) return;
    total += info.size;
    if (!info.isDirectory()) return;
    const sub = await openSubfolder(folder, e.name);
    if (sub === null) return;
    try {
      total += await folderSize(sub, depth + 1);
    } finally {
      await sub.handle?.close();
    }
  });
  return total;
}

/** How often removing a folder is tried again when a command keeps adding to it. */
const REMOVE_ATTEMPTS = 3;

/**
 * Removes `name` from `folder`: a file or a link itself, a folder with everything in it, walked
 * fd-relative all the way down (a link met inside is removed, never followed). ENOENT when nothing
 * is there.
 */
export async function removeEntry(folder: OpenFolder, name: string, depth = 0): Promise<void> {
  const where = fdChild(folder.fd, name);
  for (let attempt = 1; ; attempt++) {
    const info = await lstat(where);
    if (!info.isDirectory()) {
      try {
        await unlink(where);
        return;
      } catch (e) {
        if (errnoOf(e) === 'EISDIR' && attempt < REMOVE_ATTEMPTS) continue; // became a folder meanwhile
        throw e;
      }
    }
    const sub = await openSubfolder(folder, name);
    if (sub !== null) {
      try {
        await emptyFolder(sub, depth + 1);
      } finally {
        await sub.handle?.close();
      }
    }
    try {
      await rmdir(where);
      return;
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOENT') return;
      // Something was added meanwhile, or it is no longer a folder (rmdir of a link: ENOTDIR).
      if ((code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') && attempt < REMOVE_ATTEMPTS) continue;
      throw e;
    }
  }
}

/** Batches of 1,000 entries; a folder a command keeps filling is given up on after this many. */
const MAX_EMPTYING_ROUNDS = 10_000;

async function emptyFolder(folder: OpenFolder, depth: number): Promise<void> {
  checkDepth(depth);
  // Read a batch, then remove it: removing while the listing is open could skip entries.
  for (let round = 0; round < MAX_EMPTYING_ROUNDS; round++) {
    const batch: string[] = [];
    await eachEntry(folder, (e) => {
      batch.push(e.name);
      return batch.length >= 1_000 ? 'stop' : undefined;
    });
    if (batch.length === 0) return;
    for (const name of batch) {
      await removeEntry(folder, name, depth).catch((e: unknown) => {
        if (errnoOf(e) !== 'ENOENT') throw e;
      });
    }
  }
  // Left for rmdir to refuse (ENOTEMPTY).
}

export function byTypeThenName(a: { name: string; directory: boolean }, b: { name: string; directory: boolean }): number {
  if (a.directory !== b.directory) return a.directory ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
