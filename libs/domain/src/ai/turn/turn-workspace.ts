import { type SandboxHost, TEMP_BUILD_DIR, TREE_IGNORE_LIST, type CommandResult } from '../../sandbox/sandbox-host.port.js';
import { matchesTreeIgnore } from '../../sandbox/tree-ignore.js';
import {
  type ApplyOperationsFailure,
  applyOperations,
  type FileChange,
  type FileOperation,
  type OperationRefused,
  validateOperation,
} from '../file-operation.js';
import { filePaths, folderPaths } from './turn-context.js';

/** What a turn never looks into: installed packages, git's data and the error scan's build folder. */
export const WORKSPACE_IGNORE: readonly string[] = Object.freeze(['node_modules', '.git', TEMP_BUILD_DIR]);

/** A batch the workspace could not apply because an edit needs the whole file (never guessed). */
export interface NeedsFullFileOutcome {
  readonly kind: 'needs_full_file';
  readonly path: string;
}

export interface AppliedOutcome {
  readonly kind: 'applied';
  /** The operations applied, in order, paths normalised. */
  readonly operations: readonly FileOperation[];
  readonly changes: readonly FileChange[];
  /** Commands the batch asked for, to run after its files are written. */
  readonly commands: readonly string[];
  /** Operations left out: refused as written, or not applicable (a missing file, a clash). */
  readonly skipped: readonly (OperationRefused | ApplyOperationsFailure)[];
}

export type ApplyOutcome = NeedsFullFileOutcome | AppliedOutcome;

const UNREAD = '\u0000(not read)';

const isHidden = (path: string): boolean => path.split('/').some((segment) => matchesTreeIgnore(segment, TREE_IGNORE_LIST));

/** The paths an operation reads or writes. */
function pathsOf(operation: FileOperation): string[] {
  switch (operation.type) {
    case 'write_file':
    case 'edit_file':
    case 'delete_file':
      return [operation.path];
    case 'rename_file':
      return [operation.from, operation.to];
    case 'add_dependency':
      return ['package.json'];
    case 'run_command':
      return [];
  }
}

/**
 * A turn's view of one project's files in its sandbox: reads through a cache, applies batches of
 * file operations (all or nothing per batch, on the cache first, then written), and remembers the
 * content every touched file had before the turn, so the whole turn can be undone exactly.
 */
export class TurnWorkspace {
  /** Current text of files read or written during the turn (a cache of the sandbox). */
  private cache = new Map<string, string>();
  /** The content each touched file had before the turn; null = it did not exist. */
  private readonly before = new Map<string, string | null>();
  private files: Set<string>;
  /** Folders known to exist in the sandbox (they may be empty). */
  private folders: Set<string>;
  private commandsRun = 0;
  private everySnapshotTaken = false;

  private constructor(
    private readonly host: SandboxHost,
    private readonly projectId: string,
    initialFiles: readonly string[],
    private readonly initialFolders: ReadonlySet<string>,
  ) {
    this.files = new Set(initialFiles);
    this.folders = new Set(initialFolders);
  }

  static async open(host: SandboxHost, projectId: string): Promise<TurnWorkspace> {
    const tree = await host.getTree(projectId, '.', WORKSPACE_IGNORE);
    return new TurnWorkspace(host, projectId, filePaths(tree), new Set(folderPaths(tree)));
  }

  /** Every file path the assistant may see (SPEC §9 ignore list applied), sorted. */
  tree(): string[] {
    return [...this.files].filter((p) => !isHidden(p)).sort();
  }

  exists(path: string): boolean {
    return this.files.has(path);
  }

  async read(path: string): Promise<string> {
    const cached = this.cache.get(path);
    if (cached !== undefined) return cached;
    const content = await this.host.readFile(this.projectId, path);
    this.cache.set(path, content);
    return content;
  }

  /** True when the turn wrote, deleted or ran anything. */
  get changed(): boolean {
    return this.before.size > 0 || this.commandsRun > 0;
  }

  /** Paths whose content differs from before the turn, sorted. */
  async changedPaths(): Promise<string[]> {
    const paths: string[] = [];
    for (const [path, before] of this.before) {
      const now = this.files.has(path) ? await this.read(path) : null;
      if (now !== before) paths.push(path);
    }
    return paths.sort();
  }

  /**
   * Applies one answer's operations. Operations refused as written are left out; the rest apply
   * in order, all or nothing. An edit whose search text is missing or ambiguous (or an edit of a
   * missing file) answers needs_full_file when `askForFullFile`, and nothing is written; otherwise
   * an operation that cannot apply is left out and the rest are applied.
   */
  async apply(operations: readonly FileOperation[], options: { readonly askForFullFile: boolean }): Promise<ApplyOutcome> {
    const skipped: (OperationRefused | ApplyOperationsFailure)[] = [];
    let batch: FileOperation[] = [];
    for (const operation of operations) {
      const valid = validateOperation(operation);
      if (valid.ok) batch.push(valid.value);
      else skipped.push(valid.error);
    }
    for (const path of new Set(batch.flatMap(pathsOf))) if (this.files.has(path)) await this.read(path);

    for (;;) {
      const result = applyOperations(this.view(), batch);
      if (result.ok) {
        await this.write(result.value.changes, result.value.files);
        return { kind: 'applied', operations: batch, changes: result.value.changes, commands: result.value.commands, skipped };
      }
      const failure = result.error;
      const failed = batch[failure.index];
      if (options.askForFullFile && failure.code === 'AI.NEEDS_FULL_FILE') return { kind: 'needs_full_file', path: failure.path };
      if (options.askForFullFile && failure.code === 'AI.FILE_MISSING' && failed?.type === 'edit_file') return { kind: 'needs_full_file', path: failure.path };
      skipped.push(failure);
      batch = batch.filter((_, index) => index !== failure.index);
    }
  }

  /** Runs a command the assistant asked for; whatever it changes is undone with the turn. */
  async runCommand(command: string): Promise<CommandResult> {
    if (!this.everySnapshotTaken) {
      // A command may change any file: remember them all first.
      for (const path of this.files) if (!this.before.has(path)) this.before.set(path, await this.read(path));
      this.everySnapshotTaken = true;
    }
    this.commandsRun += 1;
    try {
      return await this.host.runCommand(this.projectId, command);
    } finally {
      const tree = await this.host.getTree(this.projectId, '.', WORKSPACE_IGNORE);
      this.files = new Set(filePaths(tree));
      this.folders = new Set(folderPaths(tree));
      for (const path of this.files) if (!this.before.has(path)) this.before.set(path, null);
      this.cache = new Map();
    }
  }

  /**
   * Puts every touched file back as it was before the turn (a file that did not exist is
   * deleted) and removes the folders the turn created, so the project is exactly as before.
   */
  async revert(): Promise<void> {
    const ordered = [...this.before].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const present = new Set(filePaths(await this.host.getTree(this.projectId, '.', WORKSPACE_IGNORE)));
    // 1. Files the turn created go.
    for (const [path, before] of ordered) {
      if (before !== null || !present.has(path)) continue;
      await this.host.deleteFile(this.projectId, path);
      present.delete(path);
    }
    // 2. Folders the turn created that hold no file now go (outermost first; one removes its
    //    children), so a file that was where a folder now is can come back.
    const folders = folderPaths(await this.host.getTree(this.projectId, '.', WORKSPACE_IGNORE));
    const removed: string[] = [];
    for (const folder of folders.sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1))) {
      if (this.initialFolders.has(folder) || removed.some((r) => folder.startsWith(`${r}/`))) continue;
      const prefix = `${folder}/`;
      if ([...present].some((p) => p.startsWith(prefix))) continue;
      await this.host.deleteFile(this.projectId, folder);
      removed.push(folder);
    }
    // 3. Files the turn changed or deleted come back as they were.
    for (const [path, before] of ordered) {
      if (before === null) continue;
      const now = present.has(path) ? await this.host.readFile(this.projectId, path) : null;
      if (now !== before) await this.host.writeFile(this.projectId, path, before);
      present.add(path);
    }
    // 4. Folders that were there (perhaps empty) and are not any more.
    const nowFolders = new Set(folderPaths(await this.host.getTree(this.projectId, '.', WORKSPACE_IGNORE)));
    for (const folder of this.initialFolders) if (!nowFolders.has(folder)) await this.host.createDirectory(this.projectId, folder);
    this.files = present;
    this.folders = new Set(this.initialFolders);
    this.cache = new Map();
    this.before.clear();
    this.commandsRun = 0;
  }

  /**
   * Every file of the project for applyOperations: the ones read so far with their text, the
   * others with a stand-in (so folder clashes are seen). Every path an operation names was read
   * before, so a stand-in is never edited or written back.
   */
  private view(): Map<string, string> {
    const view = new Map<string, string>();
    for (const path of this.files) view.set(path, this.cache.get(path) ?? UNREAD);
    return view;
  }

  private async write(changes: readonly FileChange[], next: ReadonlyMap<string, string>): Promise<void> {
    const ordered = [...changes.filter((c) => c.change === 'deleted'), ...changes.filter((c) => c.change !== 'deleted')];
    for (const { path, change } of ordered) {
      if (!this.before.has(path)) this.before.set(path, this.files.has(path) ? await this.read(path) : null);
      if (change === 'deleted') {
        await this.host.deleteFile(this.projectId, path);
        this.files.delete(path);
        this.cache.delete(path);
      } else {
        // A file where an emptied folder is (src/lib/b.ts deleted, then src/lib written): the folder goes first.
        if (change === 'created' && this.folders.has(path)) {
          await this.host.deleteFile(this.projectId, path);
          for (const folder of [...this.folders]) if (folder === path || folder.startsWith(`${path}/`)) this.folders.delete(folder);
        }
        const content = next.get(path) ?? '';
        await this.host.writeFile(this.projectId, path, content);
        this.files.add(path);
        const segments = path.split('/');
        for (let i = 1; i < segments.length; i += 1) this.folders.add(segments.slice(0, i).join('/'));
        this.cache.set(path, content);
      }
    }
  }
}
