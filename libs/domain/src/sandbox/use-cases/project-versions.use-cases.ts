import type { ProjectOwnership } from '../../projects/project-ownership.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import { type ProblemLog, problemText } from '../../shared/problem-log.port.js';
import { err, ok, type Result } from '../../shared/result.js';
import { resolveSandboxPath, type SandboxPathError } from '../sandbox-path.js';
import { type SandboxRootRefused, sandboxRootRefused } from './project-files.use-cases.js';
import type { ProjectFilesChanged } from '../project-files-changed.port.js';
import { isSandboxMissing } from '../sandbox-missing.js';
import type { RestoreVersionResult, SandboxVersion, SandboxVersions, SaveVersionResult } from '../sandbox-versions.port.js';

/** SPEC §8: a version that could not be saved is an answer, not an error. */
export const SAVE_VERSION_FAILED = 'Could not save this version';
/** SPEC §8: a file that could not be put back is an answer, not an error. */
export const RESTORE_FILE_FAILED = 'Could not undo this file';
/** SPEC §8: a version that could not be put back is an answer, not an error. */
export const RESTORE_VERSION_FAILED = 'Could not restore this version';

/** Saves every change as a new version (SPEC §7 git/commit); any failure is success false (SPEC §8). */
export class SaveProjectVersion {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly versions: SandboxVersions,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string, message: string): Promise<Result<SaveVersionResult, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    try {
      return ok(await this.versions.saveVersion(projectId, message));
    } catch (error) {
      this.problems.warn(`Saving a version of ${projectId} failed: ${problemText(error)}`);
      return ok({ success: false, message: SAVE_VERSION_FAILED });
    }
  }
}

/** The versions, newest first (SPEC §7 git/history); a failure answers none (SPEC §8), a missing sandbox is thrown. */
export class ListProjectVersions {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly versions: SandboxVersions,
    private readonly problems: ProblemLog,
  ) {}

  async execute(userId: string, projectId: string): Promise<Result<readonly SandboxVersion[], ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    try {
      return ok(await this.versions.versionHistory(projectId));
    } catch (error) {
      if (isSandboxMissing(error)) throw error;
      this.problems.warn(`Reading the versions of ${projectId} failed: ${problemText(error)}`);
      return ok([]);
    }
  }
}

/** Applied migrations a restore took out of the project (docs/databases.md "Migrations"). */
export interface RemovedMigrations {
  keptAfterRestore(projectId: string): Promise<readonly string[]>;
}

export const schemaKeptMessage = (names: readonly string[]): string =>
  ` The database schema was kept: the migration${names.length === 1 ? '' : 's'} ${names.join(', ')} had been applied and ${names.length === 1 ? 'is' : 'are'} no longer in the project, but Kiln never drops tables or data on its own. Write a new migration to undo ${names.length === 1 ? 'it' : 'them'}.`;

/**
 * Puts a version's files back as a new version (SPEC §7 git/restore); any failure is success
 * false (SPEC §8). After a restore anything may have changed: the builder and the index follow.
 */
export class RestoreProjectVersion {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly versions: SandboxVersions,
    private readonly changed: ProjectFilesChanged,
    private readonly problems: ProblemLog,
    /** The project's database, when it has one: a restore never changes its schema, and says so. */
    private readonly migrations?: RemovedMigrations,
  ) {}

  /** `hash` is matched without regard to case (git's own hashes are lower case). */
  async execute(userId: string, projectId: string, hash: string): Promise<Result<RestoreVersionResult, ProjectNotFound>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    let result: RestoreVersionResult;
    try {
      result = await this.versions.restoreVersion(projectId, hash.toLowerCase());
    } catch (error) {
      this.problems.warn(`Restoring version ${hash} of ${projectId} failed: ${problemText(error)}`);
      return ok({ success: false, message: RESTORE_VERSION_FAILED });
    }
    if (result.success) this.changed.filesChanged(projectId, { paths: [], reason: 'restore' });
    if (result.success && this.migrations) {
      const kept = await this.migrations.keptAfterRestore(projectId).catch((error: unknown) => {
        this.problems.warn(`Reading the migrations of ${projectId} after a restore failed: ${problemText(error)}`);
        return [];
      });
      if (kept.length > 0) return ok({ ...result, message: `${result.message}${schemaKeptMessage(kept)}` });
    }
    return ok(result);
  }
}

/**
 * "Undo this file" in Versions (issue #14): one file of a version put back as it was before that
 * version (deleted when the version added it), as a new version. The path follows the domain's
 * path rule (resolveSandboxPath; the root is refused); a host failure is success false (SPEC §8).
 * The builder and the index hear of that one path.
 */
export class RestoreProjectFile {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly versions: SandboxVersions,
    private readonly changed: ProjectFilesChanged,
    private readonly problems: ProblemLog,
  ) {}

  async execute(
    userId: string,
    projectId: string,
    input: { readonly hash: string; readonly path: string },
  ): Promise<Result<RestoreVersionResult, ProjectNotFound | SandboxPathError | SandboxRootRefused>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    const path = resolveSandboxPath(input.path);
    if (!path.ok) return path;
    if (path.value === '.') return err(sandboxRootRefused('must be a file (use git/restore for a whole version)'));
    let result: RestoreVersionResult;
    try {
      result = await this.versions.restoreFile(projectId, input.hash.toLowerCase(), path.value);
    } catch (error) {
      this.problems.warn(`Undoing ${path.value} of version ${input.hash} of ${projectId} failed: ${problemText(error)}`);
      return ok({ success: false, message: RESTORE_FILE_FAILED });
    }
    if (result.success && result.hash !== undefined) this.changed.filesChanged(projectId, { paths: [path.value], reason: 'restore' });
    return ok(result);
  }
}
