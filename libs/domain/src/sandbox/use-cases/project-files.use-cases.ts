import type { ProjectOwnership } from '../../projects/project-ownership.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import type { DomainError } from '../../shared/domain-error.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { ProjectFilesChanged } from '../project-files-changed.port.js';
import type { FileListEntry, FileTreeEntry, ReadDirectoryOptions, SandboxFiles } from '../sandbox-files.port.js';
import { resolveSandboxPath, type SandboxPathError } from '../sandbox-path.js';

/** The project root where a route needs a file or a folder inside it. */
export type SandboxRootRefused = DomainError<'VALIDATION_FAILED'>;
export const sandboxRootRefused = (problem: string): SandboxRootRefused => ({ code: 'VALIDATION_FAILED', message: `path: ${problem}` });

export type SandboxFileError = ProjectNotFound | SandboxPathError | SandboxRootRefused;

/** A file operation's answer: its value and the normalised path it acted on. */
export interface AtPath<T> {
  readonly path: string;
  readonly value: T;
}

/**
 * The caller's own project and a path checked by the domain rule (the host checks again as it
 * walks the path on disk). Someone else's project is PROJECTS.NOT_FOUND; the root is refused
 * when `root` says why. Host rejections (a missing file, no sandbox) are thrown as they come.
 */
async function ownedPath(
  owned: ProjectOwnership,
  userId: string,
  projectId: string,
  requested: string,
  root?: string,
): Promise<Result<string, SandboxFileError>> {
  const found = await owned.find(userId, projectId);
  if (!found.ok) return found;
  const path = resolveSandboxPath(requested);
  if (!path.ok) return path;
  if (root !== undefined && path.value === '.') return err(sandboxRootRefused(root));
  return ok(path.value);
}

/** A file's text (SPEC §7 read-file). */
export class ReadProjectFile {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: SandboxFiles,
  ) {}

  async execute(userId: string, projectId: string, requested: string): Promise<Result<AtPath<string>, SandboxFileError>> {
    const path = await ownedPath(this.owned, userId, projectId, requested);
    if (!path.ok) return path;
    return ok({ path: path.value, value: await this.files.readFile(projectId, path.value) });
  }
}

/** Creates or replaces a file (SPEC §7 write-file); the builder and the index hear of it. */
export class WriteProjectFile {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: SandboxFiles,
    private readonly changed: ProjectFilesChanged,
  ) {}

  async execute(userId: string, projectId: string, requested: string, content: string): Promise<Result<string, SandboxFileError>> {
    const path = await ownedPath(this.owned, userId, projectId, requested, 'must name a file, not the project root');
    if (!path.ok) return path;
    await this.files.writeFile(projectId, path.value, content);
    this.changed.filesChanged(projectId, { paths: [path.value], reason: 'write' });
    return path;
  }
}

/** Deletes a file or a folder with everything in it (SPEC §7 delete-file). */
export class DeleteProjectFile {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: SandboxFiles,
    private readonly changed: ProjectFilesChanged,
  ) {}

  async execute(userId: string, projectId: string, requested: string): Promise<Result<string, SandboxFileError>> {
    const path = await ownedPath(this.owned, userId, projectId, requested, 'cannot be the project root (use cleanup)');
    if (!path.ok) return path;
    await this.files.deleteFile(projectId, path.value);
    this.changed.filesChanged(projectId, { paths: [path.value], reason: 'delete' });
    return path;
  }
}

/** Creates a folder and any missing parents (SPEC §7 create-directory). */
export class CreateProjectDirectory {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: SandboxFiles,
    private readonly changed: ProjectFilesChanged,
  ) {}

  async execute(userId: string, projectId: string, requested: string): Promise<Result<string, SandboxFileError>> {
    const path = await ownedPath(this.owned, userId, projectId, requested);
    if (!path.ok) return path;
    await this.files.createDirectory(projectId, path.value);
    this.changed.filesChanged(projectId, { paths: [path.value], reason: 'create-directory' });
    return path;
  }
}

/** A folder's direct entries (SPEC §7 read-directory), with their text when asked. */
export class ReadProjectDirectory {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: SandboxFiles,
  ) {}

  async execute(
    userId: string,
    projectId: string,
    requested: string,
    options: ReadDirectoryOptions,
  ): Promise<Result<AtPath<readonly FileListEntry[]>, SandboxFileError>> {
    const path = await ownedPath(this.owned, userId, projectId, requested);
    if (!path.ok) return path;
    return ok({ path: path.value, value: await this.files.readDirectory(projectId, path.value, options) });
  }
}

/** The file tree under a folder (SPEC §7 get-tree; the SPEC §9 ignore list unless given one). */
export class GetProjectTree {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly files: SandboxFiles,
  ) {}

  async execute(
    userId: string,
    projectId: string,
    requested: string,
    ignore?: readonly string[],
  ): Promise<Result<AtPath<readonly FileTreeEntry[]>, SandboxFileError>> {
    const path = await ownedPath(this.owned, userId, projectId, requested);
    if (!path.ok) return path;
    return ok({ path: path.value, value: await this.files.getTree(projectId, path.value, ignore) });
  }
}
