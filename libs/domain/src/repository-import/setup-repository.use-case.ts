import type { ProjectTurnLock } from '../ai/engine/project-turn-lock.js';
import type { ProjectOwnership } from '../projects/project-ownership.js';
import { type ProjectBusy, type ProjectNotFound, projectBusy } from '../projects/project.errors.js';
import type { ProjectFilesChanged } from '../sandbox/project-files-changed.port.js';
import type { SandboxVersions, SaveVersionResult } from '../sandbox/sandbox-versions.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { type ProblemLog, problemText } from '../shared/problem-log.port.js';
import { err, ok, type Result } from '../shared/result.js';
import { type GitUrlOptions, type GitUrlRefused, parseGitUrl, setupRepositoryMessage } from './git-url.js';
import { type ImportedRepository, RepositoryImportError, type RepositoryImporter } from './repository-importer.port.js';

export type RepositoryImportFailed = DomainError<'REPOSITORY.IMPORT_FAILED'>;

export interface RepositorySetUp extends ImportedRepository {
  readonly version: SaveVersionResult;
}

/**
 * SPEC §7 setup/repository (issue #17 item 10): the caller's own project, a URL parseGitUrl
 * accepts, then under the turn lock the import, the builder and the index told that anything may
 * have changed, and the version "Import <url>". Every failure a person can act on is
 * 'Failed to setup repository: {error}' (SPEC §8).
 */
export class SetupRepository {
  constructor(
    private readonly owned: ProjectOwnership,
    private readonly importer: RepositoryImporter,
    private readonly versions: Pick<SandboxVersions, 'saveVersion'>,
    private readonly lock: Pick<ProjectTurnLock, 'tryRun'>,
    private readonly changed: ProjectFilesChanged,
    private readonly problems: ProblemLog,
    private readonly urlOptions: GitUrlOptions = {},
  ) {}

  async execute(userId: string, projectId: string, gitUrl: string): Promise<Result<RepositorySetUp, ProjectNotFound | ProjectBusy | GitUrlRefused | RepositoryImportFailed>> {
    const found = await this.owned.find(userId, projectId);
    if (!found.ok) return found;
    const url = parseGitUrl(gitUrl, this.urlOptions);
    if (!url.ok) return url;
    const attempt = await this.lock.tryRun(projectId, async (): Promise<Result<RepositorySetUp, RepositoryImportFailed>> => {
      let imported: ImportedRepository;
      try {
        imported = await this.importer.importRepository(projectId, url.value);
      } catch (error) {
        if (!(error instanceof RepositoryImportError)) throw error;
        return err({ code: 'REPOSITORY.IMPORT_FAILED', message: setupRepositoryMessage(error.reason) });
      } finally {
        // Even a failed import may have changed files: the builder and the index look again.
        this.changed.filesChanged(projectId, { paths: [], reason: 'restore' });
      }
      return ok({ ...imported, version: await this.saveVersion(projectId, `Import ${url.value.href}`) });
    });
    return attempt.ran ? attempt.value : err(projectBusy());
  }

  private async saveVersion(projectId: string, message: string): Promise<SaveVersionResult> {
    try {
      return await this.versions.saveVersion(projectId, message);
    } catch (error) {
      this.problems.warn(`Saving the imported repository of ${projectId} failed: ${problemText(error)}`);
      return { success: false, message: 'Could not save this version' };
    }
  }
}
