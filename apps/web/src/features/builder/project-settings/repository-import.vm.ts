import { parseGitUrl } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { errorText } from '../../../app/error-text';
import { type Toasts, TYPES } from '../../../app/ports';
import type { SandboxApi } from '../../../api/sandbox.api';

/**
 * "Import a repository" in the project settings (SPEC §7 setup/repository): a public https
 * repository replaces the project's files, saved as a version, so the files it replaces stay in
 * Versions. The URL is checked as the server checks it before anything is sent; the server's
 * refusal ('Failed to setup repository: …', SPEC §8) is shown as it is.
 */
@injectable()
export class RepositoryImportVm {
  url = '';
  /** The person said they know the project's files will be replaced. */
  confirmed = false;
  importing = false;
  error: string | null = null;
  private projectId = '';

  constructor(
    @inject(TYPES.SandboxApi) private readonly sandbox: SandboxApi,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
  ) {
    makeAutoObservable<RepositoryImportVm, 'sandbox' | 'toasts' | 'projectId'>(this, { sandbox: false, toasts: false, projectId: false }, { autoBind: true });
  }

  setProject(projectId: string): void {
    if (projectId === this.projectId) return;
    this.projectId = projectId;
    this.url = '';
    this.confirmed = false;
    this.error = null;
  }

  setUrl(url: string): void {
    this.url = url;
    this.error = null;
  }

  setConfirmed(confirmed: boolean): void {
    this.confirmed = confirmed;
  }

  /** Why the URL cannot be imported, in the server's words; null while empty or when it can. */
  get urlError(): string | null {
    if (this.url.trim() === '') return null;
    const parsed = parseGitUrl(this.url);
    return parsed.ok ? null : parsed.error.message;
  }

  get canImport(): boolean {
    return this.projectId !== '' && !this.importing && this.confirmed && this.url.trim() !== '' && this.urlError === null;
  }

  async importRepository(): Promise<void> {
    if (!this.canImport) return;
    const url = this.url.trim();
    this.importing = true;
    this.error = null;
    try {
      const done = await this.sandbox.setupRepository(this.projectId, url);
      runInAction(() => {
        this.url = '';
        this.confirmed = false;
      });
      this.toasts.show({ title: 'Repository imported', description: `${done.files} files from ${url}, saved as a version.`, variant: 'success' });
    } catch (error) {
      runInAction(() => (this.error = errorText(error, 'The repository could not be imported.')));
    } finally {
      runInAction(() => (this.importing = false));
    }
  }
}
