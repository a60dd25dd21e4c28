import { constants } from 'node:fs';
import { chmod, type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { eachEntry, openSubfolder } from '../sandbox/files/folder-walks.js';
import { errnoOf, fdChild, OPEN_DIRECTORY, OPEN_READ } from '../sandbox/files/fd-paths.js';
import type { OpenFolder } from '../sandbox/files/project-walker.js';

const MiB = 1024 * 1024;

/** What a release may hold (docs/security.md "Published sites"). */
export interface ReleaseCopyLimits {
  readonly maxBytes: number;
  readonly maxFiles: number;
  /** Folders below the output folder. */
  readonly maxDepth: number;
}

export const DEFAULT_RELEASE_COPY_LIMITS: ReleaseCopyLimits = { maxBytes: 200 * MiB, maxFiles: 20_000, maxDepth: 32 };

/** The build's output cannot be published as it is (a limit, no output folder); the message says why, for the build log. */
export class ReleaseCopyRefused extends Error {
  override readonly name = 'ReleaseCopyRefused';
}

export interface ReleaseCopyResult {
  readonly sizeBytes: number;
  readonly fileCount: number;
  /** Output-relative paths of what was not copied: links, FIFOs, sockets, devices. */
  readonly skipped: readonly string[];
}

const CHUNK_BYTES = 256 * 1024;
const FILE_MODE = 0o444;
const FOLDER_MODE = 0o555;

/**
 * Copies the build output `outputDir` (relative to `projectDir`) into the new folder `target`,
 * treating every byte as hostile: the project's code wrote it and may still be changing it.
 *
 * - Every name is opened relative to the folder opened before it (fd-paths.ts), never through a
 *   link: a link anywhere — the output folder itself, a folder inside, a file — is not followed;
 *   links inside are skipped (listed in `skipped`), a link as the output folder refuses the copy.
 * - Only regular files and folders are copied: lstat first (a FIFO is never opened), fstat of the
 *   opened file is what counts (the entry may be swapped meanwhile).
 * - Over `limits` (bytes, files, depth) the copy is refused as soon as it counts one too many,
 *   also for a file growing while it is read.
 * - Names come from the listing: single names, so nothing lands outside `target`.
 *
 * The copy is made read-only (files 0444, folders 0555) once complete. On a refusal `target` is
 * left for the caller to remove.
 */
export async function copyReleaseOutput(projectDir: string, outputDir: string, target: string, limits: ReleaseCopyLimits = DEFAULT_RELEASE_COPY_LIMITS): Promise<ReleaseCopyResult> {
  const names = outputDir.split('/').filter((n) => n !== '');
  if (names.some((n) => n === '.' || n === '..')) throw new Error(`Not a plain output folder: ${outputDir}`);
  const root = await open(projectDir, OPEN_DIRECTORY);
  const opened: FileHandle[] = [root];
  try {
    let folder: OpenFolder = { fd: root.fd, names: [], handle: null };
    for (const name of names) {
      const next = await openSubfolder(folder, name);
      if (next === null) throw new ReleaseCopyRefused(`The build left no output folder (${outputDir} is missing or is not a folder).`);
      if (next.handle !== null) opened.push(next.handle);
      folder = { fd: next.fd, names: [], handle: null };
    }
    const state = { bytes: 0, files: 0, skipped: [] as string[] };
    await mkdir(target, { mode: 0o700 });
    await copyFolder(folder, target, '', 0, limits, state);
    await chmod(target, FOLDER_MODE);
    return { sizeBytes: state.bytes, fileCount: state.files, skipped: state.skipped };
  } finally {
    for (const handle of opened.reverse()) await handle.close().catch(() => undefined);
  }
}

interface CopyState {
  bytes: number;
  files: number;
  readonly skipped: string[];
}

async function copyFolder(folder: OpenFolder, dest: string, rel: string, depth: number, limits: ReleaseCopyLimits, state: CopyState): Promise<void> {
  if (depth > limits.maxDepth) throw new ReleaseCopyRefused(`The build output is nested deeper than ${limits.maxDepth} folders.`);
  // Listed first, copied after: the listing stays short-lived (one descriptor per level).
  const entries: string[] = [];
  await eachEntry(folder, (entry) => {
    entries.push(entry.name);
    if (entries.length > limits.maxFiles) throw tooManyFiles(limits);
  });
  for (const name of entries) {
    const relPath = rel === '' ? name : `${rel}/${name}`;
    const info = await lstat(fdChild(folder.fd, name)).catch((e: unknown) => {
      if (errnoOf(e) === 'ENOENT') return null; // removed meanwhile
      throw e;
    });
    if (info === null) continue;
    if (info.isDirectory()) {
      const sub = await openSubfolder(folder, name); // null: swapped for a link or a file meanwhile
      if (sub === null) {
        state.skipped.push(relPath);
        continue;
      }
      try {
        const subDest = path.join(dest, name);
        await mkdir(subDest, { mode: 0o700 });
        await copyFolder(sub, subDest, relPath, depth + 1, limits, state);
        await chmod(subDest, FOLDER_MODE);
      } finally {
        await sub.handle?.close();
      }
    } else if (info.isFile()) {
      if (!(await copyFile(folder, name, path.join(dest, name), limits, state))) state.skipped.push(relPath);
    } else {
      state.skipped.push(relPath); // a link, a FIFO, a socket, a device: never published
    }
  }
}

/** Copies one regular file; false when it is not one once opened (it was swapped). */
async function copyFile(folder: OpenFolder, name: string, dest: string, limits: ReleaseCopyLimits, state: CopyState): Promise<boolean> {
  let source: FileHandle;
  try {
    source = await open(fdChild(folder.fd, name), OPEN_READ);
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENXIO') return false; // now a link, gone, a FIFO
    throw e;
  }
  try {
    const info = await source.stat();
    if (!info.isFile()) return false;
    if (++state.files > limits.maxFiles) throw tooManyFiles(limits);
    if (state.bytes + info.size > limits.maxBytes) throw tooLarge(limits);
    const out = await open(dest, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
    try {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      for (;;) {
        const { bytesRead } = await source.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        state.bytes += bytesRead;
        if (state.bytes > limits.maxBytes) throw tooLarge(limits); // it grew while read
        await out.write(chunk, 0, bytesRead);
      }
    } finally {
      await out.close();
    }
    return true;
  } finally {
    await source.close();
  }
}

function tooLarge(limits: ReleaseCopyLimits): ReleaseCopyRefused {
  return new ReleaseCopyRefused(`The build output is larger than ${Math.round(limits.maxBytes / MiB)} MB; a published site may hold at most that.`);
}

function tooManyFiles(limits: ReleaseCopyLimits): ReleaseCopyRefused {
  return new ReleaseCopyRefused(`The build output has more than ${limits.maxFiles} files; a published site may hold at most that many.`);
}
