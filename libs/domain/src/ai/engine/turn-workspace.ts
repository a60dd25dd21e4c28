import type { CommandResult, SandboxCommands } from '../../sandbox/sandbox-commands.port.js';
import { type SandboxFiles, TEMP_BUILD_DIR, TREE_IGNORE_LIST } from '../../sandbox/sandbox-files.port.js';
import { matchesTreeIgnore } from '../../sandbox/tree-ignore.js';
import {
  type ApplyOperationsFailure,
  applyOperations,
  type FileChange,
  type FileOperation,
  type OperationRefused,
  validateOperation,
} from '../operations/file-operation.js';
import { filePaths, folderPaths } from '../context/turn-context.js';
import type { TurnUndoEntry, TurnUndoJournal } from './turn-undo-journal.port.js';
import { classifyPackageCommand } from '../../sandbox/package-command.js';

/** What a turn's package-install command answers instead of running. */
export const PACKAGE_COMMAND_IN_TURN = 'Package installs are not run as commands: use add_dependency (packages are installed at the check).';

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

/**
 * What undoing a turn needs: the content every touched file had before the turn (null = it did
 * not exist), the folders there were, and whether every file there was is among `files` (then
 * any other file was created by the turn). Kept in memory by TurnWorkspace and, for a process
 * that dies mid-turn, in the TurnUndoJournal.
 */
export interface TurnUndo {
  readonly files: ReadonlyMap<string, string | null>;
  readonly folders: ReadonlySet<string>;
  readonly everyFile: boolean;
}

/** A turn's undo from its journal (null when nothing was recorded: the turn changed nothing). */
export function turnUndoFrom(entries: readonly TurnUndoEntry[]): TurnUndo | null {
  if (entries.length === 0) return null;
  const files = new Map<string, string | null>();
  const folders = new Set<string>();
  let everyFile = false;
  for (const entry of entries) {
    if (entry.kind === 'file') files.set(entry.path, entry.before);
    else if (entry.kind === 'folder') folders.add(entry.path);
    else everyFile = true;
  }
  return { files, folders, everyFile };
}

const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Puts a project's files back as they were before a turn: files the turn created are deleted,
 * folders it created removed, files it changed or deleted written back, folders that were there
 * made again. Writes only what differs, so undoing twice is harmless. Answers the project's files
 * afterwards. (TurnWorkspace.revert and RecoverInterruptedTurns.)
 */
export async function undoTurnChanges(host: SandboxFiles, projectId: string, undo: TurnUndo): Promise<Set<string>> {
  const present = new Set(filePaths(await host.getTree(projectId, '.', WORKSPACE_IGNORE)));
  // 1. Files the turn created go.
  for (const path of [...present].sort(byPath)) {
    const before = undo.files.get(path);
    if (before === null || (before === undefined && undo.everyFile)) {
      await host.deleteFile(projectId, path);
      present.delete(path);
    }
  }
  // 2. Folders the turn created that hold no file now go (outermost first; one removes its
  //    children), so a file that was where a folder now is can come back.
  const folders = folderPaths(await host.getTree(projectId, '.', WORKSPACE_IGNORE));
  const removed: string[] = [];
  for (const folder of folders.sort((a, b) => a.split('/').length - b.split('/').length || byPath(a, b))) {
    if (undo.folders.has(folder) || removed.some((r) => folder.startsWith(`${r}/`))) continue;
    const prefix = `${folder}/`;
    if ([...present].some((p) => p.startsWith(prefix))) continue;
    await host.deleteFile(projectId, folder);
    removed.push(folder);
  }
  // 3. Files the turn changed or deleted come back as they were.
  for (const [path, before] of [...undo.files].sort(([a], [b]) => byPath(a, b))) {
    if (before === null) continue;
    const now = present.has(path) ? await host.readFile(projectId, path) : null;
    if (now !== before) await host.writeFile(projectId, path, before);
    present.add(path);
  }
  // 4. Folders that were there (perhaps empty) and are not any more.
  const nowFolders = new Set(folderPaths(await host.getTree(projectId, '.', WORKSPACE_IGNORE)));
  for (const folder of undo.folders) if (!nowFolders.has(folder)) await host.createDirectory(projectId, folder);
  return present;
}

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

/** Where a workspace writes its undo down before changing anything: the turn's journal. */
export interface TurnUndoRecording {
  readonly turnId: string;
  readonly journal: TurnUndoJournal;
}

/**
 * A turn's view of one project's files in its sandbox: reads through a cache, applies batches of
 * file operations (all or nothing per batch, on the cache first, then written), and remembers the
 * content every touched file had before the turn, so the whole turn can be undone exactly. What
 * it remembers is recorded in the turn's undo journal before the sandbox is changed (once per
 * batch; the first record also holds the folders there were), so another process can undo the
 * turn if this one dies.
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
  /** True once the journal holds something (and so the folders there were). */
  private journaled = false;

  private constructor(
    private readonly host: SandboxFiles & SandboxCommands,
    private readonly projectId: string,
    private readonly recording: TurnUndoRecording,
    initialFiles: readonly string[],
    private readonly initialFolders: ReadonlySet<string>,
  ) {
    this.files = new Set(initialFiles);
    this.folders = new Set(initialFolders);
  }

  static async open(host: SandboxFiles & SandboxCommands, projectId: string, recording: TurnUndoRecording): Promise<TurnWorkspace> {
    const tree = await host.getTree(projectId, '.', WORKSPACE_IGNORE);
    return new TurnWorkspace(host, projectId, recording, filePaths(tree), new Set(folderPaths(tree)));
  }

  /** True when the turn's undo journal holds something (it must be cleared when the turn ends). */
  get hasJournal(): boolean {
    return this.journaled;
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

  /**
   * Runs a command the assistant asked for; whatever it changes is undone with the turn. A
   * package install (`npm install x`) is not run: it would replace node_modules, the link into
   * the shared cache; add_dependency is the way, installed at the check.
   */
  async runCommand(command: string): Promise<CommandResult> {
    if (classifyPackageCommand(command).kind !== 'other') {
      return { exitCode: 1, stdout: '', stderr: `${PACKAGE_COMMAND_IN_TURN}\n`, timedOut: false, outputTruncated: false };
    }
    if (!this.everySnapshotTaken) {
      // A command may change any file: remember them all first.
      const snapshot = new Map<string, string | null>();
      for (const path of this.files) if (!this.before.has(path)) snapshot.set(path, await this.read(path));
      await this.remember(snapshot, { everyFile: true });
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
    // `before` also holds every file a command created (as null, read after the command), so files
    // the person created meanwhile are left alone; only a journal read after a crash, which may
    // have stopped inside a command, needs `everyFile`.
    this.files = await undoTurnChanges(this.host, this.projectId, { files: this.before, folders: this.initialFolders, everyFile: false });
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

  /**
   * Adds pre-turn contents to what the turn remembers, recording them in the journal first (one
   * record for the batch; the first record also holds the folders there were). Nothing is
   * remembered when the record fails, and then nothing may be written.
   */
  private async remember(firsts: ReadonlyMap<string, string | null>, options: { readonly everyFile?: boolean } = {}): Promise<void> {
    if (firsts.size === 0 && options.everyFile !== true) return;
    const entries: TurnUndoEntry[] = [];
    if (!this.journaled) for (const path of this.initialFolders) entries.push({ kind: 'folder', path });
    for (const [path, before] of firsts) entries.push({ kind: 'file', path, before });
    if (options.everyFile === true) entries.push({ kind: 'every_file' });
    await this.recording.journal.record(this.recording.turnId, this.projectId, entries);
    this.journaled = true;
    for (const [path, before] of firsts) this.before.set(path, before);
  }

  private async write(changes: readonly FileChange[], next: ReadonlyMap<string, string>): Promise<void> {
    const ordered = [...changes.filter((c) => c.change === 'deleted'), ...changes.filter((c) => c.change !== 'deleted')];
    // What the batch is about to change, as it was before the turn: recorded before any write.
    const firsts = new Map<string, string | null>();
    for (const { path } of ordered) if (!this.before.has(path) && !firsts.has(path)) firsts.set(path, this.files.has(path) ? await this.read(path) : null);
    await this.remember(firsts);
    for (const { path, change } of ordered) {
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
