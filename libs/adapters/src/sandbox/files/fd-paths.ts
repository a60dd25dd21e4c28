import { constants } from 'node:fs';

/*
 * Node has no openat(2). On Linux `/proc/self/fd/<fd>` is a "magic" link: the kernel does not
 * re-read a path from it but jumps to the very file the descriptor holds, so
 * `/proc/self/fd/<dirFd>/<name>` looks `name` up in that opened folder, wherever it has been moved
 * and whatever now has its old path. With O_NOFOLLOW that is openat(dirFd, name, O_NOFOLLOW);
 * mkdir, unlink, rmdir, lstat and readlink on it are mkdirat, unlinkat, … (none of them follows a
 * last-component link). Every file route walks a project one name at a time this way.
 */

const FD_ROOT = '/proc/self/fd';

const { O_RDONLY, O_WRONLY, O_CREAT, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A folder, never through a link. */
export const OPEN_DIRECTORY = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** A file to read, never through a link; a FIFO does not block the open (it is refused after fstat). */
export const OPEN_READ = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
/** A file to write, created when missing, never through a link; truncated only once fstat says it is a regular file. */
export const OPEN_WRITE = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK;

/** The path that names `name` inside the folder open as `dirFd`. */
export function fdChild(dirFd: number, name: string): string {
  // A name is one entry: a slash or a dot name would walk somewhere else than the folder itself.
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
    throw new Error(`Not a single file name: ${JSON.stringify(name)}`);
  }
  return `${FD_ROOT}/${dirFd}/${name}`;
}

/** The path of the folder open as `dirFd` itself (to list it). */
export function fdSelf(dirFd: number): string {
  return `${FD_ROOT}/${dirFd}`;
}

/** The errno code of a failed system call ('ENOENT'), if it is one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** An error shaped like Node's own file-system errors, which callers map by `code`. */
export function fsError(code: 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'EFTYPE', message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}
