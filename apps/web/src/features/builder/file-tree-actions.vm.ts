import { protectedNameIn, resolveSandboxPath } from '@kiln/domain';
import { makeAutoObservable, runInAction } from 'mobx';
import type { Toasts } from '../../app/ports';
import type { FileSaver } from '../../app/ui-ports';
import type { FileActionDto, SandboxApi } from '../../api/sandbox.api';
import type { FilesVm } from './files.vm';

/** The dialog an action asks through: a name (new file, new folder, rename) or a confirmation (delete). */
export type FileActionDialog =
  | { readonly kind: 'new-file' | 'new-folder'; readonly parent: string }
  | { readonly kind: 'rename'; readonly path: string; readonly type: 'file' | 'directory' }
  | { readonly kind: 'delete'; readonly path: string; readonly type: 'file' | 'directory' };

/** What the builder lets this view-model do besides the tree: reload versions and the preview. */
export interface FileActionsHost {
  /** The open project, read when an action runs (its name loads later than the screen). */
  project(): { readonly id: string; readonly name: string };
  afterChange(): Promise<void> | void;
  afterRestart(): Promise<void> | void;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');
const joinPath = (parent: string, name: string): string => (parent === '.' || parent === '' ? name : `${parent}/${name}`);
const parentOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.');
const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * The file tree's actions (issue #17 item 8): new file, new folder, rename, delete (confirmed),
 * restart the dev server, clean up and export as zip. Each goes through the API, which checks the
 * path and saves a version; a name is checked here first with the same domain rules so a person
 * hears what is wrong before anything is sent. Failures keep the dialog open with the reason.
 */
export class FileTreeActionsVm {
  dialog: FileActionDialog | null = null;
  name = '';
  error: string | null = null;
  busy = false;
  restarting = false;
  cleaning = false;
  exporting = false;

  private host: FileActionsHost = { project: () => ({ id: '', name: '' }), afterChange: () => undefined, afterRestart: () => undefined };

  constructor(
    private readonly api: SandboxApi,
    private readonly files: FilesVm,
    private readonly toasts: Toasts,
    private readonly saver: FileSaver,
  ) {
    makeAutoObservable<FileTreeActionsVm, 'api' | 'files' | 'toasts' | 'saver' | 'host'>(
      this,
      { api: false, files: false, toasts: false, saver: false, host: false },
      { autoBind: true },
    );
  }

  attach(host: FileActionsHost): void {
    this.host = host;
    this.cancel();
  }

  // ── Dialogs ──────────────────────────────────────────────────────────────────────────────

  startNewFile(parent = '.'): void {
    this.open({ kind: 'new-file', parent }, '');
  }

  startNewFolder(parent = '.'): void {
    this.open({ kind: 'new-folder', parent }, '');
  }

  startRename(path: string, type: 'file' | 'directory'): void {
    this.open({ kind: 'rename', path, type }, path);
  }

  startDelete(path: string, type: 'file' | 'directory'): void {
    this.open({ kind: 'delete', path, type }, '');
  }

  setName(name: string): void {
    this.name = name;
    this.error = null;
  }

  cancel(): void {
    if (this.busy) return;
    this.dialog = null;
    this.name = '';
    this.error = null;
  }

  /** The path the dialog's name leads to (new file and folder: inside their parent). */
  get targetPath(): string {
    const dialog = this.dialog;
    if (dialog === null || dialog.kind === 'delete') return dialog?.path ?? '';
    const name = this.name.trim();
    return dialog.kind === 'rename' ? name : joinPath(dialog.parent, name);
  }

  /** Why the name cannot be used, before anything is sent; null when it can. */
  get nameProblem(): string | null {
    const dialog = this.dialog;
    if (dialog === null || dialog.kind === 'delete') return null;
    if (this.name.trim() === '') return 'Enter a name.';
    const resolved = resolveSandboxPath(this.targetPath);
    if (!resolved.ok || resolved.value === '.') return 'Use a name inside the project: letters, numbers, dots, dashes and / for folders.';
    const protectedName = protectedNameIn(resolved.value);
    if (protectedName !== null) return `${protectedName} is managed by Kiln and cannot be changed here.`;
    if (dialog.kind === 'rename' && resolved.value === dialog.path) return 'Enter a new name.';
    return null;
  }

  /** The dialog's main button: runs its action through the API. */
  async confirm(): Promise<boolean> {
    const dialog = this.dialog;
    if (dialog === null || this.busy) return false;
    const problem = this.nameProblem;
    if (problem !== null) {
      this.error = problem;
      return false;
    }
    const target = this.targetPath;
    const projectId = this.host.project().id;
    this.busy = true;
    try {
      const done = await this.run(dialog, projectId, target);
      await this.afterDone(dialog, done);
      runInAction(() => {
        this.busy = false;
        this.cancel();
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.busy = false;
        this.error = errorText(error);
      });
      return false;
    }
  }

  private run(dialog: FileActionDialog, projectId: string, target: string): Promise<FileActionDto> {
    switch (dialog.kind) {
      case 'new-file':
        return this.api.newFile(projectId, target);
      case 'new-folder':
        return this.api.newFolder(projectId, target);
      case 'rename':
        return this.api.rename(projectId, dialog.path, target);
      case 'delete':
        return this.api.deletePath(projectId, dialog.path);
    }
  }

  private async afterDone(dialog: FileActionDialog, done: FileActionDto): Promise<void> {
    if (dialog.kind === 'delete' || dialog.kind === 'rename') {
      // Tabs of what is gone close (the folder's files too); a renamed open file opens again under its new name.
      const gone = dialog.path;
      const wasOpen = this.files.display.items.some((item) => item.path === gone);
      for (const item of this.files.display.items) if (item.path === gone || item.path.startsWith(`${gone}/`)) this.files.close(item.path);
      if (dialog.kind === 'rename' && wasOpen && dialog.type === 'file') await this.files.open(done.path);
    }
    // Every folder above what was made or moved opens, so it shows in the tree.
    if (dialog.kind !== 'delete') for (let folder = parentOf(done.path); folder !== '.'; folder = parentOf(folder)) this.files.setFolderExpanded(folder, true);
    if (dialog.kind === 'new-file') await this.files.open(done.path);
    this.toasts.show({ title: doneTitle(dialog, done.path), variant: 'success' });
    await Promise.all([this.files.loadTree(), this.host.afterChange()]);
  }

  // ── Sandbox actions ──────────────────────────────────────────────────────────────────────

  /** Restarts the dev server (the preview reloads once it answers). */
  async restartDevServer(): Promise<void> {
    if (this.restarting) return;
    this.restarting = true;
    try {
      const state = await this.api.restartDev(this.host.project().id);
      this.toasts.show({ title: 'Dev server restarted', description: state.message, variant: state.status === 'failed' ? 'error' : 'success' });
      await this.host.afterRestart();
    } catch (error) {
      this.toasts.show({ title: 'Could not restart the dev server', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.restarting = false));
    }
  }

  /** Clean up: build output and caches go, the dev server restarts; the person's files stay. */
  async cleanUp(): Promise<void> {
    if (this.cleaning) return;
    this.cleaning = true;
    try {
      const cleaned = await this.api.cleanUp(this.host.project().id);
      const description = cleaned.removed.length === 0 ? 'There were no build files or caches to remove.' : `Removed ${cleaned.removed.join(', ')}.`;
      this.toasts.show({ title: 'Cleaned up', description: `${description} Your files were not touched.`, variant: 'success' });
      await Promise.all([this.files.loadTree(), this.host.afterRestart()]);
    } catch (error) {
      this.toasts.show({ title: 'Could not clean up', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.cleaning = false));
    }
  }

  /** Export as zip: downloads the project's files. */
  async exportZip(): Promise<void> {
    if (this.exporting) return;
    this.exporting = true;
    try {
      const zip = await this.api.exportZip(this.host.project().id);
      this.saver.save(zip, zipNameFor(this.host.project().name, this.host.project().id));
    } catch (error) {
      this.toasts.show({ title: 'Could not export the project', description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => (this.exporting = false));
    }
  }

  private open(dialog: FileActionDialog, name: string): void {
    if (this.busy) return;
    this.dialog = dialog;
    this.name = name;
    this.error = null;
  }
}

function doneTitle(dialog: FileActionDialog, path: string): string {
  switch (dialog.kind) {
    case 'new-file':
      return `Created ${baseName(path)}`;
    case 'new-folder':
      return `Created folder ${baseName(path)}`;
    case 'rename':
      return `Renamed to ${path}`;
    case 'delete':
      return `Deleted ${baseName(path)}`;
  }
}

/** A download name from the project's name: letters, digits, dots, dashes; else its id. */
export function zipNameFor(projectName: string, projectId: string): string {
  const safe = projectName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return `${safe === '' ? projectId : safe}.zip`;
}
