import { makeAutoObservable, runInAction } from 'mobx';
import type { Timers, Toasts } from '../../app/ports';
import type { Logger } from '../../app/ui-ports';
import type { CommitDto, SandboxApi } from '../../api/sandbox.api';
import { relativeTime } from '../../app/relative-time';

export interface VersionRow {
  readonly hash: string;
  readonly shortHash: string;
  readonly message: string;
  /** ISO 8601, for <time dateTime>. */
  readonly date: string;
  /** 'just now', '5 minutes ago', 'yesterday'. */
  readonly when: string;
  readonly filesChanged: number;
  /** The files it added, changed or removed. */
  readonly files: readonly string[];
  /** Its files can be undone one by one (not the oldest version: before it there was nothing). */
  readonly canUndoFiles: boolean;
  /** The newest version is what the project holds now: it has nothing to restore. */
  readonly current: boolean;
}

export const DEFAULT_VERSION_MESSAGE = 'Saved version';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');

/**
 * The versions panel: git history (newest first; SPEC §8: a failure shows an empty list),
 * "Save version" (git/commit) and Restore with a confirmation (git/restore). After a restore
 * `onRestored` lets the builder refresh the tree, the open files and the preview.
 */
export class VersionsVm {
  commits: readonly CommitDto[] = [];
  status: 'idle' | 'loading' | 'ready' = 'idle';
  message = '';
  committing = false;
  /** The version the confirmation dialog asks about. */
  pendingRestore: CommitDto | null = null;
  restoring = false;
  /** When the list was loaded: relative dates are counted from it. */
  loadedAt: number;

  private projectId = '';
  private onRestored: () => Promise<void> | void = () => undefined;

  constructor(
    private readonly api: SandboxApi,
    private readonly toasts: Toasts,
    private readonly timers: Timers,
    private readonly logger: Logger,
  ) {
    this.loadedAt = timers.now();
    makeAutoObservable<VersionsVm, 'api' | 'toasts' | 'timers' | 'logger' | 'projectId' | 'onRestored'>(
      this,
      { api: false, toasts: false, timers: false, logger: false, projectId: false, onRestored: false },
      { autoBind: true },
    );
  }

  setProject(projectId: string, onRestored: () => Promise<void> | void): void {
    if (projectId !== this.projectId) {
      this.commits = [];
      this.status = 'idle';
      this.pendingRestore = null;
    }
    this.projectId = projectId;
    this.onRestored = onRestored;
  }

  get rows(): readonly VersionRow[] {
    return this.commits.map((commit, index) => ({
      hash: commit.hash,
      shortHash: commit.hash.slice(0, 7),
      message: commit.message,
      date: commit.date,
      when: relativeTime(commit.date, this.loadedAt),
      filesChanged: commit.files_changed.length,
      files: commit.files_changed,
      canUndoFiles: index < this.commits.length - 1,
      current: index === 0,
    }));
  }

  /** The file being undone ("<hash> <path>"), or null. */
  undoingFile: string | null = null;

  isUndoing(hash: string, path: string): boolean {
    return this.undoingFile === `${hash} ${path}`;
  }

  /**
   * "Undo this file": that one file goes back to how it was before the version (issue #14), as a
   * new version; the history and the builder are refreshed.
   */
  async undoFile(hash: string, path: string): Promise<boolean> {
    if (this.undoingFile !== null || this.restoring) return false;
    this.undoingFile = `${hash} ${path}`;
    try {
      const result = await this.api.gitRestoreFile(this.projectId, hash, path);
      if (!result.success) {
        this.toasts.show({ title: 'Could not undo that file', description: result.message, variant: 'error' });
        return false;
      }
      this.toasts.show({ title: 'File undone', description: result.hash === undefined ? `${path} was already as before that version.` : `${path} is back as it was before that version.`, variant: 'success' });
      await Promise.all([this.load(), this.onRestored()]);
      return true;
    } catch (error) {
      this.toasts.show({ title: 'Could not undo that file', description: errorText(error), variant: 'error' });
      return false;
    } finally {
      runInAction(() => (this.undoingFile = null));
    }
  }

  async load(): Promise<void> {
    if (this.status === 'idle') this.status = 'loading';
    const projectId = this.projectId;
    let commits: readonly CommitDto[];
    try {
      commits = await this.api.gitHistory(projectId);
    } catch (error) {
      this.logger.warn('Loading the version history failed', error);
      commits = []; // SPEC §8: history failure → empty list
    }
    runInAction(() => {
      if (projectId !== this.projectId) return;
      this.commits = commits;
      this.status = 'ready';
      this.loadedAt = this.timers.now();
    });
  }

  setMessage(message: string): void {
    this.message = message;
  }

  /** "Save version": commits every change with the typed message (or a default one). */
  async saveVersion(): Promise<void> {
    if (this.committing) return;
    const message = this.message.trim() || DEFAULT_VERSION_MESSAGE;
    this.committing = true;
    try {
      const result = await this.api.gitCommit(this.projectId, message);
      if (result.success) {
        this.toasts.show({ title: 'Version saved', description: message, variant: 'success' });
        runInAction(() => (this.message = ''));
        await this.load();
      } else {
        // SPEC §8: a failed commit is an answer with a message (e.g. nothing to commit).
        this.toasts.show({ title: 'No version saved', description: result.message, variant: 'warning' });
      }
    } catch (error) {
      this.toasts.show({ title: 'Could not save a version', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.committing = false));
    }
  }

  askRestore(hash: string): void {
    this.pendingRestore = this.commits.find((commit) => commit.hash === hash) ?? null;
  }

  cancelRestore(): void {
    if (!this.restoring) this.pendingRestore = null;
  }

  /** The confirmed restore: git/restore, then the history and the builder are refreshed. */
  async confirmRestore(): Promise<boolean> {
    const commit = this.pendingRestore;
    if (commit === null || this.restoring) return false;
    this.restoring = true;
    try {
      const result = await this.api.gitRestore(this.projectId, commit.hash);
      if (!result.success) {
        this.toasts.show({ title: 'Could not restore that version', description: result.message, variant: 'error' });
        return false;
      }
      this.toasts.show({ title: 'Version restored', description: commit.message, variant: 'success' });
      runInAction(() => (this.pendingRestore = null));
      await Promise.all([this.load(), this.onRestored()]);
      return true;
    } catch (error) {
      this.toasts.show({ title: 'Could not restore that version', description: errorText(error), variant: 'error' });
      return false;
    } finally {
      runInAction(() => (this.restoring = false));
    }
  }
}
