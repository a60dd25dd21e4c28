import type { ProjectTurnLock } from '../ai/engine/project-turn-lock.js';
import type { ProjectOwnership } from '../projects/project-ownership.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../projects/project.errors.js';
import type { FilesChange, ProjectFilesChanged } from '../sandbox/project-files-changed.port.js';
import type { SandboxDevServer, DevServerState } from '../sandbox/sandbox-dev-server.port.js';
import type { SandboxFileActions } from '../sandbox/sandbox-file-actions.port.js';
import type { SandboxFiles } from '../sandbox/sandbox-files.port.js';
import { resolveSandboxPath, type SandboxPathError } from '../sandbox/sandbox-path.js';
import type { SandboxVersions, SaveVersionResult } from '../sandbox/sandbox-versions.port.js';
import { type SandboxRootRefused, sandboxRootRefused } from '../sandbox/use-cases/project-files.use-cases.js';
import { SAVE_VERSION_FAILED } from '../sandbox/use-cases/project-versions.use-cases.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import { err, ok, type Result } from '../shared/result.js';
import { isCleanedUp } from './clean-up.js';
import { type PathProtected, pathProtected, protectedNameIn } from './protected-paths.js';

/** What the file tree's actions need of the sandbox. */
export type FileActionSandbox = Pick<SandboxFiles, 'deleteFile' | 'createDirectory' | 'readDirectory'> &
  SandboxFileActions &
  Pick<SandboxVersions, 'saveVersion'> &
  Pick<SandboxDevServer, 'restartDev' | 'devServer'>;

export type FileActionError = ProjectNotFound | ProjectBusy | SandboxPathError | SandboxRootRefused | PathProtected;

/** A file-tree action done: the normalised path it ended at, and the version that records it. */
export interface FileActionDone {
  readonly path: string;
  /** SPEC §8: a version that could not be saved is success false; the change stays. */
  readonly version: SaveVersionResult;
}

/** The dependencies every file-tree action shares. */
export interface FileActionDeps {
  readonly owned: ProjectOwnership;
  readonly sandbox: FileActionSandbox;
  /** The AI turns' lock, taken without waiting: an action never interleaves with a turn. */
  readonly lock: Pick<ProjectTurnLock, 'tryRun'>;
  readonly changed: ProjectFilesChanged;
  readonly problems: ProblemLog;
}

/** The constructor arguments of every action, in the order the API's useCase() passes them. */
export type FileActionArgs = [owned: ProjectOwnership, sandbox: FileActionSandbox, lock: Pick<ProjectTurnLock, 'tryRun'>, changed: ProjectFilesChanged, problems: ProblemLog];

const depsOf = ([owned, sandbox, lock, changed, problems]: FileActionArgs): FileActionDeps => ({ owned, sandbox, lock, changed, problems });

/** A path the file tree may change: inside the project, not its root, not through a protected name. */
function actionPath(requested: string): Result<string, SandboxPathError | SandboxRootRefused | PathProtected> {
  const path = resolveSandboxPath(requested);
  if (!path.ok) return path;
  if (path.value === '.') return err(sandboxRootRefused('must name a file or folder, not the project root'));
  const name = protectedNameIn(path.value);
  return name === null ? ok(path.value) : err(pathProtected(path.value, name));
}

/**
 * The one way a file-tree action runs: the caller's own project, every path checked, then under
 * the turn lock the change itself, the builder and the index told, and a version saved with
 * `message` (as an AI turn or a theme records its changes). Host rejections are thrown for the
 * API to map.
 */
async function recorded(
  deps: FileActionDeps,
  userId: string,
  projectId: string,
  requested: readonly string[],
  act: (paths: readonly string[]) => Promise<{ readonly path: string; readonly change: FilesChange; readonly message: string }>,
): Promise<Result<FileActionDone, FileActionError>> {
  const found = await deps.owned.find(userId, projectId);
  if (!found.ok) return found;
  const paths: string[] = [];
  for (const one of requested) {
    const path = actionPath(one);
    if (!path.ok) return path;
    paths.push(path.value);
  }
  const attempt = await deps.lock.tryRun(projectId, async () => {
    const done = await act(paths);
    deps.changed.filesChanged(projectId, done.change);
    return { path: done.path, version: await saveVersion(deps, projectId, done.message) };
  });
  return attempt.ran ? ok(attempt.value) : err(projectBusy());
}

async function saveVersion(deps: FileActionDeps, projectId: string, message: string): Promise<SaveVersionResult> {
  try {
    return await deps.sandbox.saveVersion(projectId, message);
  } catch (error) {
    deps.problems.warn(`Saving the version "${message}" of ${projectId} failed: ${problemText(error)}`);
    return { success: false, message: SAVE_VERSION_FAILED };
  }
}

/** "New file": an empty file; a taken name is refused (the host's EEXIST), nothing is replaced. */
export class CreateProjectFile {
  private readonly deps: FileActionDeps;
  constructor(...deps: FileActionArgs) {
    this.deps = depsOf(deps);
  }

  execute(userId: string, projectId: string, path: string): Promise<Result<FileActionDone, FileActionError>> {
    return recorded(this.deps, userId, projectId, [path], async ([file = '']) => {
      await this.deps.sandbox.createFile(projectId, file);
      return { path: file, change: { paths: [file], reason: 'write' }, message: `Create ${file}` };
    });
  }
}

/** "New folder": the folder and missing parents (an empty folder is in no version until it holds a file). */
export class CreateProjectFolder {
  private readonly deps: FileActionDeps;
  constructor(...deps: FileActionArgs) {
    this.deps = depsOf(deps);
  }

  execute(userId: string, projectId: string, path: string): Promise<Result<FileActionDone, FileActionError>> {
    return recorded(this.deps, userId, projectId, [path], async ([folder = '']) => {
      await this.deps.sandbox.createDirectory(projectId, folder);
      return { path: folder, change: { paths: [folder], reason: 'create-directory' }, message: `Create folder ${folder}` };
    });
  }
}

/** "Rename" (a move): a file, link or folder to a free name anywhere in the project. */
export class RenameProjectPath {
  private readonly deps: FileActionDeps;
  constructor(...deps: FileActionArgs) {
    this.deps = depsOf(deps);
  }

  execute(userId: string, projectId: string, from: string, to: string): Promise<Result<FileActionDone, FileActionError>> {
    const [source, target] = [resolveSandboxPath(from), resolveSandboxPath(to)];
    if (source.ok && target.ok && (target.value === source.value || target.value.startsWith(`${source.value}/`))) {
      return Promise.resolve(err({ code: 'VALIDATION_FAILED', message: 'to: must be a new name, not the same path or a place inside the folder being moved' }));
    }
    return recorded(this.deps, userId, projectId, [from, to], async ([source = '', target = '']) => {
      await this.deps.sandbox.movePath(projectId, source, target);
      return { path: target, change: { paths: [source, target], reason: 'rename' }, message: `Rename ${source} to ${target}` };
    });
  }
}

/** "Delete" (after the builder's confirmation): a file, a link or a folder with everything in it. */
export class DeleteProjectPath {
  private readonly deps: FileActionDeps;
  constructor(...deps: FileActionArgs) {
    this.deps = depsOf(deps);
  }

  execute(userId: string, projectId: string, path: string): Promise<Result<FileActionDone, FileActionError>> {
    return recorded(this.deps, userId, projectId, [path], async ([gone = '']) => {
      await this.deps.sandbox.deleteFile(projectId, gone);
      return { path: gone, change: { paths: [gone], reason: 'delete' }, message: `Delete ${gone}` };
    });
  }
}

export interface CleanedUp {
  /** The top-level entries removed (clean-up.ts). */
  readonly removed: readonly string[];
  /** The dev server after its restart. */
  readonly state: DevServerState;
}

/**
 * "Clean up" (clean-up.ts): under the turn lock, removes the build output and tool caches at the
 * project's top level and restarts the dev server. Nothing a version holds changes, so no version
 * is saved; the builder hears of the removed entries.
 */
export class CleanUpProject {
  private readonly deps: FileActionDeps;
  constructor(...deps: FileActionArgs) {
    this.deps = depsOf(deps);
  }

  async execute(userId: string, projectId: string): Promise<Result<CleanedUp, ProjectNotFound | ProjectBusy>> {
    const found = await this.deps.owned.find(userId, projectId);
    if (!found.ok) return found;
    const attempt = await this.deps.lock.tryRun(projectId, async () => {
      const entries = await this.deps.sandbox.readDirectory(projectId, '.');
      const removed = entries.map((entry) => entry.name).filter(isCleanedUp);
      for (const name of removed) await this.deps.sandbox.deleteFile(projectId, name);
      if (removed.length > 0) this.deps.changed.filesChanged(projectId, { paths: removed, reason: 'delete' });
      await this.deps.sandbox.restartDev(projectId);
      return { removed, state: await this.deps.sandbox.devServer(projectId) };
    });
    return attempt.ran ? ok(attempt.value) : err(projectBusy());
  }
}
