import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open, rename, unlink } from 'node:fs/promises';
import { type SandboxAnswerCap, SandboxLimitReached, sandboxTooLarge } from '@kiln/domain';
import { errnoOf, fdChild, fsError } from './fd-paths.js';
import type { OpenFolder } from './project-walker.js';

const CHUNK_BYTES = 256 * 1024;
/** Names of the files a write fills before it replaces its target (never left behind). */
export const TEMP_WRITE_PREFIX = '.kiln-write-';

/**
 * Replaces (or creates) the regular file `name` in `folder` with `bytes`, all or nothing: the bytes
 * go to a new file beside it (O_EXCL, never through a link), which is then renamed over the name.
 * A full disk (the project's disk limit) or any failure leaves the old file as it was and no
 * temporary file. `mode`: the replaced file's permissions, kept.
 */
export async function replaceFileAt(folder: OpenFolder, name: string, bytes: Uint8Array, mode?: number): Promise<void> {
  const temp = `${TEMP_WRITE_PREFIX}${randomBytes(6).toString('hex')}`;
  const tempPath = fdChild(folder.fd, temp);
  const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
  try {
    try {
      await handle.writeFile(bytes);
      if (mode !== undefined) await handle.chmod(mode & 0o7777);
    } finally {
      await handle.close();
    }
    // rename replaces whatever entry has the name (a link planted meanwhile included), never follows it.
    await rename(tempPath, fdChild(folder.fd, name));
  } catch (e) {
    await unlink(tempPath).catch(() => undefined);
    throw e;
  }
}

/** What is at `name` in `folder`, without following a link; null when nothing is. */
export async function entryAt(folder: OpenFolder, name: string): Promise<Stats | null> {
  try {
    return await lstat(fdChild(folder.fd, name));
  } catch (e) {
    if (errnoOf(e) === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Opens the regular file `name` in `folder` with `flags` (which hold O_NOFOLLOW): 'link' when a
 * link is there. lstat first keeps devices and FIFOs from being opened at all; fstat after the
 * open is the check that counts (the entry may have changed between the two). A folder rejects
 * EISDIR, anything else but a regular file EFTYPE, nothing there ENOENT (unless `flags` create it).
 */
export async function openFileAt(folder: OpenFolder, name: string, flags: number, mode?: number): Promise<FileHandle | 'link'> {
  const before = await entryAt(folder, name);
  if (before?.isSymbolicLink() === true) return 'link';
  if (before !== null) refuseUnlessRegular(before, name);
  let handle: FileHandle;
  try {
    handle = await open(fdChild(folder.fd, name), flags, mode);
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'ELOOP') return 'link'; // became a link since the lstat
    if (code === 'ENXIO') throw fsError('EFTYPE', `${name}: not a regular file`); // a FIFO or socket
    throw e;
  }
  try {
    refuseUnlessRegular(await handle.stat(), name);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

function refuseUnlessRegular(info: Stats, name: string): void {
  if (info.isDirectory()) throw fsError('EISDIR', `${name}: a folder, not a file`);
  if (!info.isFile()) throw fsError('EFTYPE', `${name}: not a regular file`);
}

/**
 * The bytes of an open regular file, at most `limit`: over it rejects SANDBOX.TOO_LARGE (`cap`),
 * told by fstat before anything is read, or while reading should the file grow meanwhile. Memory
 * stays within `limit` and one chunk.
 */
export async function readBounded(handle: FileHandle, limit: number, cap: SandboxAnswerCap, capLimit = limit): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > limit) throw new SandboxLimitReached(sandboxTooLarge(cap, capLimit));
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) throw new SandboxLimitReached(sandboxTooLarge(cap, capLimit));
  }
  return Buffer.concat(chunks, total);
}
