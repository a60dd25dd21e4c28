import { type SandboxPathOutside, SandboxPathRefused, resolveSandboxPath } from '@kiln/domain';
import {
  SANDBOX_FILE_NOT_FOUND,
  SANDBOX_NOT_A_DIRECTORY,
  SANDBOX_NOT_A_FILE,
  SANDBOX_NOT_FOUND,
  SANDBOX_PATH_TAKEN,
  toException,
} from '../error-mapping.js';

export const sandboxNotFound = (projectId: string) => ({
  code: SANDBOX_NOT_FOUND,
  message: 'This project has no sandbox yet',
  projectId,
});

/**
 * The host's "no sandbox" rejection. The port has no typed error for it; both adapters reject
 * with 'No sandbox for project <id>'.
 */
export function isNoSandbox(error: unknown): boolean {
  return error instanceof Error && /^No sandbox for project\b/.test(error.message);
}

/**
 * A client's path, checked by the domain rule before the host sees it (the host checks again,
 * after following symlinks): the normalised path, or a thrown 400 SANDBOX.PATH_OUTSIDE.
 */
export function checkedPath(requested: string): string {
  const resolved = resolveSandboxPath(requested);
  if (!resolved.ok) throw toException(resolved.error);
  return resolved.value;
}

/**
 * What a SandboxHost rejection means to the client: a refused path 400, no sandbox 404
 * SANDBOX.NOT_FOUND, a missing file 404 SANDBOX.FILE_NOT_FOUND, a folder/file mix-up 400, a
 * name already taken 409. Anything else is returned unchanged (a logged 500). Host messages are
 * never echoed: they may hold the server's own paths.
 */
export function hostFailure(error: unknown, projectId: string, path?: string): Error {
  if (error instanceof SandboxPathRefused || isPathRefusal(error)) return toException(error.error);
  if (isNoSandbox(error)) return toException(sandboxNotFound(projectId));
  const where = path === undefined ? {} : { path };
  switch (errnoOf(error)) {
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

/** Another copy of the domain package would fail `instanceof`; its shape is enough. */
function isPathRefusal(error: unknown): error is { error: SandboxPathOutside } {
  const e = error as { code?: unknown; error?: { code?: unknown } } | null;
  return typeof e === 'object' && e !== null && e.code === 'SANDBOX.PATH_OUTSIDE' && e.error?.code === 'SANDBOX.PATH_OUTSIDE';
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
