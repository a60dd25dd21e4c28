import {
  type DomainError,
  type Result,
  isSandboxMissing,
  type SandboxLimitError,
  SandboxLimitReached,
  sandboxLinkLoop,
  type SandboxPathError,
  SandboxPathRefused,
  sandboxPathTooLong,
  resolveSandboxPath,
} from '@kiln/domain';
import {
  SANDBOX_FILE_NOT_FOUND,
  SANDBOX_NOT_A_DIRECTORY,
  SANDBOX_NOT_A_FILE,
  SANDBOX_NOT_FOUND,
  SANDBOX_PATH_TAKEN,
  toException,
  unwrap,
} from '../error-mapping.js';

export const sandboxNotFound = (projectId: string) => ({
  code: SANDBOX_NOT_FOUND,
  message: 'This project has no sandbox yet',
  projectId,
});

/**
 * A client's path, checked by the domain rule before the host sees it (the host checks again as
 * it walks the path on disk): the normalised path, or a thrown 400 SANDBOX.PATH_OUTSIDE or
 * SANDBOX.PATH_TOO_LONG.
 */
export function checkedPath(requested: string): string {
  const resolved = resolveSandboxPath(requested);
  if (!resolved.ok) throw toException(resolved.error);
  return resolved.value;
}

/**
 * What a SandboxHost rejection means to the client: a refused path 400 (outside, too long, a link
 * loop), an answer or a write over a limit 413, no sandbox 404 SANDBOX.NOT_FOUND, a missing file
 * 404 SANDBOX.FILE_NOT_FOUND (SandboxMissing), a folder/file mix-up 400, a name already taken 409. Anything else
 * is returned unchanged (a logged 500). Host messages are never echoed: they may hold the
 * server's own paths.
 */
export function hostFailure(error: unknown, projectId: string, requestedPath?: string): Error {
  if (error instanceof SandboxPathRefused || error instanceof SandboxLimitReached || isCodedRefusal(error)) return toException(error.error);
  if (isSandboxMissing(error)) return toException(sandboxNotFound(projectId));
  // Messages name the path as the host saw it (normalised), not as the client spelled it.
  const resolved = requestedPath === undefined ? undefined : resolveSandboxPath(requestedPath);
  const path = resolved === undefined ? undefined : resolved.ok ? resolved.value : requestedPath;
  const where = path === undefined ? {} : { path };
  switch (errnoOf(error)) {
    // The system's own word for a path it cannot take: still the client's path, never a 500.
    case 'ENAMETOOLONG':
      return toException(sandboxPathTooLong(path ?? '', 'name'));
    case 'ELOOP':
      return toException(sandboxLinkLoop(path ?? ''));
    // The project's own volume is full (its disk limit, enforced by the kernel).
    case 'ENOSPC':
    case 'EDQUOT':
    case 'EFBIG':
      return toException({ code: 'SANDBOX.DISK_LIMIT', message: 'The project is at its disk limit: remove files to make room', ...where });
    case 'EFTYPE':
      return toException({ code: SANDBOX_NOT_A_FILE, message: `Not a regular file: ${path ?? ''}`, ...where });
    case 'ENOENT':
      return toException({ code: SANDBOX_FILE_NOT_FOUND, message: `No such file or folder: ${path ?? ''}`, ...where });
    case 'EISDIR':
      return toException({ code: SANDBOX_NOT_A_FILE, message: `This is a folder, not a file: ${path ?? ''}`, ...where });
    case 'ENOTDIR':
      return toException({ code: SANDBOX_NOT_A_DIRECTORY, message: `Not a folder: ${path ?? ''}`, ...where });
    case 'EEXIST':
      return toException({ code: SANDBOX_PATH_TAKEN, message: `Something else already has this name: ${path ?? ''}`, ...where });
    default:
      return error instanceof Error ? error : new Error(String(error));
  }
}

const REFUSAL_CODES: ReadonlySet<string> = new Set<string>([
  'SANDBOX.PATH_OUTSIDE',
  'SANDBOX.PATH_TOO_LONG',
  'SANDBOX.LINK_LOOP',
  'SANDBOX.TOO_LARGE',
  'SANDBOX.DISK_LIMIT',
] satisfies (SandboxPathError | SandboxLimitError)['code'][]);

/** Another copy of the domain package would fail `instanceof`; its shape is enough. */
function isCodedRefusal(error: unknown): error is { error: SandboxPathError | SandboxLimitError } {
  const e = error as { code?: unknown; error?: { code?: unknown } } | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && REFUSAL_CODES.has(e.code) && e.error?.code === e.code;
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs a use case that reaches the sandbox host: its domain error becomes the mapped reply
 * (unwrap), a host rejection its API error (hostFailure: a missing sandbox, file or folder, a
 * refused path, a limit).
 */
export async function hostCall<T>(projectId: string, requestedPath: string | undefined, work: () => Promise<Result<T, DomainError>>): Promise<T> {
  let result: Result<T, DomainError>;
  try {
    result = await work();
  } catch (error) {
    throw hostFailure(error, projectId, requestedPath);
  }
  return unwrap(result);
}
