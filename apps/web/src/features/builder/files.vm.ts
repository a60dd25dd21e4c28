import {
  type CodeDisplayItem,
  type CodeDisplayState,
  EMPTY_CODE_DISPLAY,
  fileNameOf,
  hideCodeDisplay,
  openCodeItem,
  removeCodeItem,
  selectCodeItem,
  showCodeDisplay,
  updateCodeItemContents,
} from './code-display';
import { makeAutoObservable, observable, runInAction } from 'mobx';
import { ApiError, type Toasts } from '../../app/ports';
import type { Logger } from '../../app/ui-ports';
import type { FileTreeEntryDto, SandboxApi } from '../../api/sandbox.api';
import type { FilesChangedReason } from '../../api/sandbox-feed';
import { type EditorLanguage, languageOf } from './language';

/** One visible row of the file tree (folders' children only while the folder is expanded). */
export interface TreeRow {
  readonly entry: FileTreeEntryDto;
  /** 1 for the project root's entries. */
  readonly level: number;
  readonly expanded: boolean;
  /** Position among its siblings (1-based) and how many siblings there are (aria-posinset/-setsize). */
  readonly position: number;
  readonly siblings: number;
}

export interface OpenFile extends CodeDisplayItem {
  /** What the editor shows: the unsaved draft, or the contents. */
  readonly text: string;
  readonly dirty: boolean;
  readonly saving: boolean;
  readonly language: EditorLanguage;
}

export type TreeStatus = 'idle' | 'loading' | 'ready' | 'error';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : 'Request failed');

/**
 * The code tab: the file tree (get-tree, refreshed on files-changed), the open files (the domain's
 * code display rules), unsaved drafts and saving. SPEC §8: a failed file operation shows an error
 * toast and leaves the state as it was.
 */
export class FilesVm {
  tree: readonly FileTreeEntryDto[] = [];
  treeStatus: TreeStatus = 'idle';
  display: CodeDisplayState = EMPTY_CODE_DISPLAY;
  /** Folders shown open, by path. */
  readonly expanded = observable.set<string>();
  /** Unsaved editor text by path. */
  readonly drafts = observable.map<string, string>();
  readonly saving = observable.set<string>();
  /** The file being read for opening, if any. */
  opening: string | null = null;

  private projectId = '';
  private treeLoad: Promise<void> | null = null;
  private treeAgain = false;

  constructor(
    private readonly api: SandboxApi,
    private readonly toasts: Toasts,
    private readonly logger: Logger,
  ) {
    makeAutoObservable<FilesVm, 'api' | 'toasts' | 'logger' | 'projectId' | 'treeLoad' | 'treeAgain'>(
      this,
      { api: false, toasts: false, logger: false, projectId: false, treeLoad: false, treeAgain: false },
      { autoBind: true },
    );
  }

  setProject(projectId: string): void {
    if (projectId === this.projectId) return;
    this.projectId = projectId;
    this.tree = [];
    this.treeStatus = 'idle';
    this.display = EMPTY_CODE_DISPLAY;
    this.expanded.clear();
    this.drafts.clear();
    this.saving.clear();
  }

  // ── Tree ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Loads the tree. Calls while a load is running are folded into one more load after it, so a
   * burst of files-changed events costs at most two requests.
   */
  loadTree(): Promise<void> {
    if (this.treeLoad !== null) {
      this.treeAgain = true;
      return this.treeLoad;
    }
    this.treeLoad = this.fetchTreeUntilSettled().finally(() => runInAction(() => (this.treeLoad = null)));
    return this.treeLoad;
  }

  private async fetchTreeUntilSettled(): Promise<void> {
    do {
      this.treeAgain = false;
      if (this.treeStatus !== 'ready') this.treeStatus = 'loading';
      const projectId = this.projectId;
      try {
        const tree = await this.api.getTree(projectId);
        runInAction(() => {
          if (projectId !== this.projectId) return;
          this.tree = tree;
          this.treeStatus = 'ready';
        });
      } catch (error) {
        runInAction(() => {
          if (this.treeStatus !== 'ready') this.treeStatus = 'error';
        });
        this.toasts.show({ title: 'Could not load the files', description: errorText(error), variant: 'error' });
      }
    } while (this.treeAgain);
  }

  /** Fills the tree from what the creation screen already loaded. */
  setTree(tree: readonly FileTreeEntryDto[]): void {
    this.tree = tree;
    this.treeStatus = 'ready';
  }

  toggleFolder(path: string): void {
    if (this.expanded.has(path)) this.expanded.delete(path);
    else this.expanded.add(path);
  }

  setFolderExpanded(path: string, expanded: boolean): void {
    if (expanded) this.expanded.add(path);
    else this.expanded.delete(path);
  }

  /** The rows the tree shows, folders first, then by name. */
  get rows(): readonly TreeRow[] {
    const rows: TreeRow[] = [];
    const walk = (entries: readonly FileTreeEntryDto[], level: number) => {
      const sorted = sortEntries(entries);
      sorted.forEach((entry, index) => {
        const expanded = entry.type === 'directory' && this.expanded.has(entry.path);
        rows.push({ entry, level, expanded, position: index + 1, siblings: sorted.length });
        if (expanded) walk(entry.children ?? [], level + 1);
      });
    };
    walk(this.tree, 1);
    return rows;
  }

  // ── Open files ───────────────────────────────────────────────────────────────────────────

  get openFiles(): readonly OpenFile[] {
    return this.display.items.map((item) => {
      const draft = this.drafts.get(item.path);
      return {
        ...item,
        text: draft ?? item.contents,
        dirty: draft !== undefined,
        saving: this.saving.has(item.path),
        language: languageOf(item.path),
      };
    });
  }

  get activeFile(): OpenFile | null {
    return this.openFiles.find((file) => file.path === this.display.activePath) ?? null;
  }

  get hasUnsavedChanges(): boolean {
    return this.drafts.size > 0;
  }

  /** A person opens a file from the tree: read it, then show it (or just switch to its tab). */
  async open(path: string): Promise<void> {
    if (this.display.items.some((item) => item.path === path)) {
      this.display = showCodeDisplay(selectCodeItem(this.display, path));
      return;
    }
    const projectId = this.projectId;
    this.opening = path;
    try {
      const contents = await this.api.readFile(projectId, path);
      runInAction(() => {
        if (projectId !== this.projectId) return;
        this.display = openCodeItem(this.display, { path, contents }, 'user');
      });
    } catch (error) {
      this.toasts.show({ title: `Could not open ${fileNameOf(path)}`, description: errorText(error), variant: 'error' });
    } finally {
      runInAction(() => {
        if (this.opening === path) this.opening = null;
      });
    }
  }

  /** The product opens a file it has just written (the AI, later): SPEC §4 manual hide applies. */
  showAutomatically(path: string, contents: string): void {
    this.display = openCodeItem(this.display, { path, contents }, 'automatic');
  }

  select(path: string): void {
    this.display = selectCodeItem(this.display, path);
  }

  /** Closes a tab; its unsaved draft is dropped. */
  close(path: string): void {
    this.display = removeCodeItem(this.display, path);
    this.drafts.delete(path);
  }

  hideDisplay(): void {
    this.display = hideCodeDisplay(this.display);
  }

  showDisplay(): void {
    this.display = showCodeDisplay(this.display);
  }

  /** The editor changed: keep the text as a draft unless it equals what is saved. */
  edit(path: string, text: string): void {
    const item = this.display.items.find((open) => open.path === path);
    if (item === undefined) return;
    if (text === item.contents) this.drafts.delete(path);
    else this.drafts.set(path, text);
  }

  /** Save (button, Ctrl/Cmd+S): write-file with the draft. A failure keeps the draft. */
  async save(path: string | null = this.display.activePath): Promise<boolean> {
    if (path === null) return false;
    const text = this.drafts.get(path);
    if (text === undefined || this.saving.has(path)) return text === undefined;
    const projectId = this.projectId;
    this.saving.add(path);
    try {
      await this.api.writeFile(projectId, path, text);
      runInAction(() => {
        this.display = updateCodeItemContents(this.display, path, text);
        // Typing may have gone on while saving: only a draft equal to what was written is done.
        if (this.drafts.get(path) === text) this.drafts.delete(path);
      });
      return true;
    } catch (error) {
      this.toasts.show({ title: `Could not save ${fileNameOf(path)}`, description: errorText(error), variant: 'error' });
      return false;
    } finally {
      runInAction(() => this.saving.delete(path));
    }
  }

  // ── Changes on disk (the realtime feed) ──────────────────────────────────────────────────

  /**
   * files-changed: the tree is loaded again, and open files without a draft get their new
   * contents (all of them when `paths` is empty or after a restore). A deleted file's tab closes.
   */
  async onFilesChanged(paths: readonly string[], reason: FilesChangedReason): Promise<void> {
    const everything = paths.length === 0 || reason === 'restore' || reason === 'command';
    const changed = new Set(paths);
    const targets = this.display.items
      .map((item) => item.path)
      .filter((path) => (everything || changed.has(path)) && !this.drafts.has(path) && !this.saving.has(path));
    await Promise.all([this.loadTree(), ...targets.map((path) => this.refreshOpenFile(path, reason === 'delete' && changed.has(path)))]);
  }

  /** Re-reads every open file without a draft (after a restore). */
  async refreshOpenFiles(): Promise<void> {
    const targets = this.display.items.map((item) => item.path).filter((path) => !this.drafts.has(path));
    await Promise.all(targets.map((path) => this.refreshOpenFile(path, false)));
  }

  private async refreshOpenFile(path: string, deleted: boolean): Promise<void> {
    if (deleted) {
      this.close(path);
      return;
    }
    const projectId = this.projectId;
    try {
      const contents = await this.api.readFile(projectId, path);
      runInAction(() => {
        if (projectId !== this.projectId || this.drafts.has(path)) return;
        this.display = updateCodeItemContents(this.display, path, contents);
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'SANDBOX.FILE_NOT_FOUND') {
        runInAction(() => this.close(path));
        return;
      }
      this.logger.warn(`Refreshing ${path} failed`, error);
    }
  }
}

function sortEntries(entries: readonly FileTreeEntryDto[]): readonly FileTreeEntryDto[] {
  return [...entries].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'directory' ? -1 : 1;
    return a.name.localeCompare(b.name, 'en', { sensitivity: 'base', numeric: true });
  });
}
