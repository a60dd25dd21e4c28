import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { lstat, open } from 'node:fs/promises';
import { type SandboxAnswerCap, SandboxLimitReached, sandboxTooLarge } from '@kiln/domain';
import { errnoOf, fdChild, fsError } from './fd-paths.js';
import type { OpenFolder } from './project-walker.js';

const CHUNK_BYTES = 256 * 1024;

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
