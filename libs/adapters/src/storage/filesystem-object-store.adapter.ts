import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { assertObjectKey, type ObjectStore, type StoredObject } from '@kiln/domain';

/**
 * ObjectStore on the local filesystem, the default (OBJECT_STORE_DIR, DATA_DIR/objects).
 *
 * Layout: a key's segments but the last are folders; the object is one file named after the last
 * segment plus `~obj`, holding a one-line JSON header (the content type) and then the bytes. `~`
 * never appears in a segment, so an object `a/b` (`a/b~obj`) and the folder of `a/b/c` (`a/b/`)
 * never collide. Temporary files and folders being deleted start with `.`, which no segment
 * does, so no key ever names them.
 *
 * - Keys pass assertObjectKey before any path is built (no `..`, no `/` at the start, no NUL).
 * - Atomic writes: a temporary file in the same folder, fsync, rename over the object, fsync the
 *   folder. Bytes and content type are one file, so a reader sees both old or both new; a crash
 *   before the rename leaves the old object and a stray `.tmp-…` file that nothing reads.
 * - Symlinks are never followed below the root: every folder on the way is checked with lstat
 *   (created one level at a time, never `mkdir -p` through a link) and object files are opened
 *   with O_NOFOLLOW. The root itself may be a link (an operator's choice).
 * - deletePrefix renames the prefix's folder to a hidden name, then removes it: readers see all
 *   of it or none of it.
 */
export class FilesystemObjectStore implements ObjectStore {
  private ready: Promise<void> | null = null;

  constructor(private readonly root: string) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const { folders, name } = split(key);
    const dir = await this.folder(folders, true);
    await writeAtomically(dir, objectFile(name), encode(bytes, contentType));
  }

  async get(key: string): Promise<StoredObject | null> {
    const { folders, name } = split(key);
    const dir = await this.folder(folders, false);
    if (dir === null) return null;
    const raw = await readNoFollow(path.join(dir, objectFile(name)));
    return raw === null ? null : decode(raw, key);
  }

  async copy(from: string, to: string): Promise<boolean> {
    split(to);
    const found = await this.get(from);
    if (found === null) return false;
    await this.put(to, found.bytes, found.contentType);
    return true;
  }

  async delete(keys: readonly string[]): Promise<void> {
    const parts = keys.map(split);
    for (const { folders, name } of parts) {
      const dir = await this.folder(folders, false);
      if (dir === null) continue;
      // unlink removes a link itself, never what it points at.
      await unlink(path.join(dir, objectFile(name))).catch(ignore('ENOENT'));
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    const { folders, name } = split(prefix);
    const dir = await this.folder(folders, false);
    if (dir === null) return;
    const target = path.join(dir, fsName(name));
    const trash = path.join(dir, `.del-${randomBytes(8).toString('hex')}`);
    try {
      await rename(target, trash);
    } catch (error) {
      if (code(error) === 'ENOENT') return;
      throw error;
    }
    // rm does not follow links inside the folder (nor a link renamed as the folder itself).
    await rm(trash, { recursive: true, force: true });
  }

  /** The root, created on first use; a root that cannot be created (under a file) rejects every call. */
  private ensureRoot(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.root, { recursive: true, mode: FOLDER_MODE });
      // stat, not lstat: the root itself may be a link (DATA_DIR on another disk).
      if (!(await stat(this.root)).isDirectory()) throw new Error('not a folder');
    })().catch((error: unknown) => {
      this.ready = null;
      throw new Error(`The object store root ${this.root} cannot be used: ${error instanceof Error ? error.message : String(error)}`);
    });
    return this.ready;
  }

  /**
   * The folder of these segments under the root, checked one level at a time: each must be a real
   * folder, not a link. `create` makes missing levels; otherwise a missing level answers null.
   */
  private async folder(segments: readonly string[], create: true): Promise<string>;
  private async folder(segments: readonly string[], create: false): Promise<string | null>;
  private async folder(segments: readonly string[], create: boolean): Promise<string | null> {
    await this.ensureRoot();
    let dir = this.root;
    for (const segment of segments) {
      dir = path.join(dir, fsName(segment));
      if (create) await mkdir(dir, { mode: FOLDER_MODE }).catch(ignore('EEXIST'));
      let stats;
      try {
        stats = await lstat(dir);
      } catch (error) {
        if (!create && code(error) === 'ENOENT') return null;
        throw error;
      }
      if (!stats.isDirectory()) {
        if (stats.isSymbolicLink()) throw new Error(`Refusing to follow a symbolic link in the object store: ${dir}`);
        if (create) throw new Error(`Not a folder in the object store: ${dir}`);
        return null;
      }
    }
    return dir;
  }
}

const HEADER_LIMIT = 4096;
/** Objects are people's files: only the API's user reads them (files 0600, folders 0700). */
const FOLDER_MODE = 0o700;
const OBJECT_SUFFIX = '~obj';
/** File names are at most 255 bytes: a segment longer than this is shortened with its hash. */
const MAX_PLAIN_SEGMENT = 200;

function split(key: string): { folders: string[]; name: string } {
  const segments = assertObjectKey(key).split('/');
  const name = segments.pop() as string;
  return { folders: segments, name };
}

/**
 * A segment's name on disk: itself, or (over 200 characters) its start, `~` and a hash of all of
 * it. Segments never contain `~`, so a shortened name never equals another segment.
 */
export function fsName(segment: string): string {
  if (segment.length <= MAX_PLAIN_SEGMENT) return segment;
  return `${segment.slice(0, 150)}~${createHash('sha256').update(segment).digest('hex').slice(0, 40)}`;
}

function objectFile(name: string): string {
  return `${fsName(name)}${OBJECT_SUFFIX}`;
}

/** The object file: `{"contentType":…}\n` then the bytes (JSON.stringify never writes a raw newline). */
function encode(bytes: Uint8Array, contentType: string): Buffer {
  const header = Buffer.from(`${JSON.stringify({ contentType })}\n`, 'utf8');
  if (header.length > HEADER_LIMIT) throw new RangeError('A content type is at most a few thousand characters');
  return Buffer.concat([header, bytes]);
}

function decode(raw: Buffer, key: string): StoredObject {
  const end = raw.indexOf(0x0a);
  let contentType: unknown;
  try {
    contentType = end < 0 || end > HEADER_LIMIT ? undefined : (JSON.parse(raw.subarray(0, end).toString('utf8')) as { contentType?: unknown }).contentType;
  } catch {
    contentType = undefined;
  }
  if (typeof contentType !== 'string') throw new Error(`The stored object ${key} is damaged (no content type header)`);
  // A copy: a Buffer may share its memory with others (Node's pool).
  return { bytes: new Uint8Array(raw.subarray(end + 1)), contentType };
}

async function writeAtomically(dir: string, name: string, data: Buffer): Promise<void> {
  const temporary = path.join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
  // O_EXCL never opens an existing path (nor follows a link there); O_NOFOLLOW to be explicit.
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // rename replaces the name itself: a link planted at the object's name is replaced, not followed.
    await rename(temporary, path.join(dir, name));
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncFolder(dir);
}

/** The rename reaches the disk too (best effort: some filesystems refuse fsync on a folder). */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY).catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/** A regular file's bytes, or null when there is none; a link (ELOOP) or anything else rejects. */
async function readNoFollow(file: string): Promise<Buffer | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (code(error) === 'ENOENT') return null;
    if (code(error) === 'ELOOP') throw new Error(`Refusing to follow a symbolic link in the object store: ${file}`);
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

function ignore(expected: string): (error: unknown) => void {
  return (error) => {
    if (code(error) !== expected) throw error;
  };
}
