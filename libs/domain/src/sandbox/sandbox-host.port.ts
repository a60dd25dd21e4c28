import type { AbortSignalLike } from '../ai/ai-assistant.port.js';
import { AI_SUPPORT_FOLDER } from '../builder/code-error.js';
import type { ErrorScan } from '../builder/error-scan.js';

/** SPEC §9: a sandbox command runs for at most 30 s unless told otherwise. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 30;
/** SPEC §7: commands run in the project root unless told otherwise. */
export const DEFAULT_WORKING_DIR = '.';

/** Kiln's own files in a generated app; the template and the sandbox adapter share these names. */
export const REPO_MAP_FILE = 'repo-map.json';
export const DEV_DATABASE_FILE = 'dev.db';
export const TEMP_BUILD_DIR = '.kiln-build';
export const TEMP_SQL_QUERY_FILE = 'temp-query.sql';

/**
 * SPEC §9 tree ignore list: what the file tree, the AI and the vector index never see. An entry
 * is a file or folder name matched at any depth, or '*.ext' for every name with that ending
 * (see matchesTreeIgnore).
 */
export const TREE_IGNORE_LIST = Object.freeze([
  'node_modules',
  'dist',
  'build',
  'public',
  'next',
  '.git',
  '.next',
  '.nuxt',
  'package-lock.json',
  '*.tsbuildinfo',
  REPO_MAP_FILE,
  AI_SUPPORT_FOLDER,
  DEV_DATABASE_FILE,
  '.env',
  TEMP_BUILD_DIR,
  TEMP_SQL_QUERY_FILE,
] as const);

/** What the builder knows about a project's sandbox (SPEC §3 "Sandbox info"). */
export interface SandboxInfo {
  /** The host's status word, e.g. 'running'; SPEC §8 treats a reachable URL as running. */
  readonly status: string;
  readonly message?: string;
  readonly appName: string;
  readonly projectId: string;
  /** Where the running app answers (the live preview). */
  readonly url: string;
  readonly ipv4Address: string | null;
  readonly ipv6Address: string | null;
  /** False when the sandbox already existed and was only looked up. */
  readonly machineCreated: boolean;
}

/** SPEC §3 file tree entry. Directories carry children; files do not. Paths are project-relative. */
export interface FileTreeEntry {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly path: string;
  readonly children?: readonly FileTreeEntry[];
}

/** SPEC §3 file list entry, with the file's text when the listing asked for contents. */
export interface FileListEntry {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly content?: string;
}

export interface ReadDirectoryOptions {
  /** Include each file's text (default false). */
  readonly includeContents?: boolean;
  /** Names or '*.ext' patterns to leave out (default none). */
  readonly ignorePatterns?: readonly string[];
}

export interface RunCommandOptions {
  /** Default DEFAULT_COMMAND_TIMEOUT_SECONDS (30). */
  readonly timeoutSeconds?: number;
  /** Relative to the project root; default DEFAULT_WORKING_DIR ('.'). */
  readonly workingDir?: string;
  /** Called with output as it arrives (the terminal streams it); the result still holds all of it. */
  readonly onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** Aborting stops the command and everything it started (Ctrl+C in the terminal): exit code 130, `interrupted`. */
  readonly signal?: AbortSignalLike;
}

/** The exit code of a command stopped by its signal (128 + SIGINT, as a shell reports Ctrl+C). */
export const INTERRUPTED_EXIT_CODE = 130;

/** The state of a sandbox's dev server, the process behind the live preview (SPEC §3 status). */
export type DevServerStatus = 'stopped' | 'starting' | 'running' | 'failed';

export interface DevServerState {
  readonly status: DevServerStatus;
  /**
   * Where the API reaches the dev server while starting or running: a Unix socket on Kiln's side of
   * the sandbox (the sandbox has no network); null otherwise.
   */
  readonly socketPath: string | null;
  /** A short sentence for the builder's status line, e.g. 'Website is running'. */
  readonly message: string;
}

/** Something that happened in a sandbox outside a request's own reply (the builder's realtime feed). */
export type SandboxHostEvent = { readonly type: 'dev-server'; readonly sandboxId: string; readonly state: DevServerState };

export interface CommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The command was stopped at the timeout; exitCode is then the host's (124), not the command's. */
  readonly timedOut: boolean;
  /** stdout or stderr went over the host's output cap and ends with a truncation marker. */
  readonly outputTruncated: boolean;
  /** Stopped through RunCommandOptions.signal; exitCode is then INTERRUPTED_EXIT_CODE. */
  readonly interrupted?: boolean;
}

/**
 * A command: a shell line (SPEC §7 run-command; the terminal) or an argument vector run without
 * any shell. A host without a sandboxed shell runs a line only when it is plain words.
 */
export type SandboxCommand = string | readonly string[];

/** SPEC §8: git commit/restore failures are answers (success false with a message), not throws. */
export interface GitCommitResult {
  readonly success: boolean;
  readonly message: string;
  /** The new commit, when one was made. */
  readonly hash?: string;
}

export interface GitRestoreResult {
  readonly success: boolean;
  readonly message: string;
  /** The new commit that holds the restored files (restoring never rewrites history). */
  readonly hash?: string;
}

/** One version in a project's history (builder "commits"), newest first in gitHistory. */
export interface SandboxCommit {
  readonly hash: string;
  readonly message: string;
  readonly date: Date;
  /** Project-relative paths the commit added, changed or removed. */
  readonly filesChanged: readonly string[];
}

/**
 * A per-project code sandbox: its files, its shell, its git history and its dev server
 * (SPEC §7 Sandbox). There is one sandbox per project, so `sandboxId` is the project id.
 *
 * Every path is resolved inside the project (resolveSandboxPath, then the host's own walk on disk,
 * which follows a link only to somewhere inside the project); a refused path rejects with
 * SandboxPathRefused (SANDBOX.PATH_OUTSIDE, SANDBOX.PATH_TOO_LONG or SANDBOX.LINK_LOOP, HTTP 400),
 * a listing or tree over the caps of sandbox-limits.ts with SandboxLimitReached
 * (SANDBOX.TOO_LARGE, HTTP 413). An unknown or malformed sandbox id rejects as well.
 *
 * Methods reject on infrastructure failure (host unreachable, file missing). The SPEC §8
 * fallbacks — file operations answering false or an empty list, history failures answering
 * empty, a failed scan answering zero counts (EMPTY_ERROR_SCAN) — are the callers' policy.
 * Git commit and restore are the exception: their failures are ordinary results.
 */
export interface SandboxHost {
  /** Creates the project's sandbox if it is missing (SPEC §4 stage 1); otherwise describes it. */
  ensure(projectId: string): Promise<SandboxInfo>;
  /** The file's text. */
  readFile(sandboxId: string, path: string): Promise<string>;
  /** Creates or replaces the file, creating parent folders as needed. */
  writeFile(sandboxId: string, path: string, content: string): Promise<void>;
  deleteFile(sandboxId: string, path: string): Promise<void>;
  /** The direct entries of a folder. */
  readDirectory(sandboxId: string, path: string, options?: ReadDirectoryOptions): Promise<readonly FileListEntry[]>;
  /** The entries under `path`, recursively; `ignore` defaults to TREE_IGNORE_LIST. */
  getTree(sandboxId: string, path: string, ignore?: readonly string[]): Promise<readonly FileTreeEntry[]>;
  /**
   * Runs a command in the project, with the timeout (killing everything it started), an output cap
   * and none of the host's secrets in its environment. A non-zero exit, a timeout or a command
   * the host cannot run (no sandboxed shell) is a result, not a rejection.
   */
  runCommand(sandboxId: string, command: SandboxCommand, options?: RunCommandOptions): Promise<CommandResult>;
  /** Creates the folder and any missing parents; an existing folder is fine. */
  createDirectory(sandboxId: string, path: string): Promise<void>;
  /** Removes the sandbox and everything in it. */
  cleanup(sandboxId: string): Promise<void>;
  /** Commits every change in the project; nothing to commit is `success: false`. */
  gitCommit(sandboxId: string, message: string): Promise<GitCommitResult>;
  gitHistory(sandboxId: string): Promise<readonly SandboxCommit[]>;
  /**
   * Puts the project's files back as they were at `commitHash`, as a new commit on top: later
   * versions stay in the history (uncommitted changes are committed first, so nothing is lost).
   */
  gitRestore(sandboxId: string, commitHash: string): Promise<GitRestoreResult>;
  /**
   * Type-checks and lints the project; the AI-support folder is already left out (errorScanFrom).
   * Packages package.json asks for are installed first; one that cannot be installed is an error
   * in package.json (the scan does not reject for it).
   */
  findErrors(sandboxId: string): Promise<ErrorScan>;
  /** Restarts the project's dev server (the live preview). */
  restartDev(sandboxId: string): Promise<void>;
  /**
   * The dev server's state, starting it when it is stopped (a failed one again after the host's
   * retry back-off; restartDev retries at once) and the sandbox exists; it
   * answers at once (status 'starting') rather than waiting. Every call counts as activity: a dev
   * server nobody asked for during the host's idle time is stopped, and started again by the next
   * call. Rejects when there is no sandbox.
   */
  devServer(sandboxId: string): Promise<DevServerState>;
  /** Listens to dev-server state changes of every sandbox; returns the unsubscribe function. */
  subscribe(listener: (event: SandboxHostEvent) => void): () => void;
  /** Stops every dev server (API shutdown). */
  stopAll(): Promise<void>;
}
