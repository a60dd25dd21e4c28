import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, lstat, mkdir, readlink, realpath, rename, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import path from 'node:path';
import {
  type CodeError,
  type CommandResult,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  type DependencySet,
  dependencySetFromPackageJson,
  DEFAULT_WORKING_DIR,
  type DevServerState,
  type FileListEntry,
  type FileTreeEntry,
  type GitCommitResult,
  type GitRestoreResult,
  type ErrorScan,
  errorScanFrom,
  INTERRUPTED_EXIT_CODE,
  isValidSandboxId,
  isWithinRoot,
  MAX_READ_FILE_BYTES,
  type ReadDirectoryOptions,
  resolveSandboxPath,
  type RunCommandOptions,
  type SandboxCommand,
  type SandboxCommit,
  type SandboxHostEvent,
  type SandboxHost,
  type SandboxInfo,
  SandboxPathRefused,
  sandboxPathOutside,
  TREE_IGNORE_LIST,
} from '@kiln/domain';
import { DependencyCache, NPM_CACHE_DIR, type NpmInstallRequest, npmInstaller } from './dependency-cache.js';
import { DevServers } from './dev-servers.js';
import { installEgressForwarder, RegistryEgressProxy, throughEgressForwarder } from './egress/index.js';
import { BubblewrapJail } from './isolation/bubblewrap-jail.js';
import { CgroupLimits } from './isolation/cgroup-limits.js';
import { DiskWatch } from './isolation/disk-watch.js';
import { type IsolationStatus, probeIsolation } from './isolation/isolation-probe.js';
import { jailCommand, PRLIMIT_PATH } from './isolation/jail-command.js';
import { ProjectVolumes } from './isolation/project-volumes.js';
import { type SandboxLimits, sandboxLimits } from './isolation/sandbox-limits.js';
import { parseTscOutput, parseViteBuildErrors } from './error-output-parsers.js';
import { ProjectFiles, type WriteFileOptions } from './files/project-files.js';
import { KeyedQueue } from './keyed-queue.js';
import { StarterDependencyCache, VITE_LAUNCHER_RELATIVE_PATH } from './starter-dependency-cache.js';

/** Where the starter template lives in the repository (copied into every new sandbox). */
export const STARTER_TEMPLATE_RELATIVE_DIR = 'libs/adapters/src/sandbox/starter';
export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap';
/** Per stream; more is dropped and a marker appended. */
export const DEFAULT_OUTPUT_CAP_BYTES = 1024 * 1024;
/** Exit code reported for a command stopped at its timeout (as coreutils' `timeout`). */
export const TIMED_OUT_EXIT_CODE = 124;
/** Exit code for a command stopped by a sandbox limit (as a SIGKILL: 128 + 9). */
export const LIMIT_EXIT_CODE = 137;
/** Exit code for a command the host refuses to run (shell syntax without a sandboxed shell). */
export const NOT_RUNNABLE_EXIT_CODE = 126;

const GIT_AUTHOR = { name: 'Kiln', email: 'builder@kiln.local' };
/** Never committed: installed or generated files ('node_modules' without a slash: it is a link). */
const GIT_EXCLUDES = ['node_modules', 'dist/', 'build/', '.kiln-build/', '*.tsbuildinfo', ''].join('\n');
const GIT_DIRS = '.kiln-git';
/** find-errors results kept per host (by the files, dependencies and launcher they were made from). */
const SCAN_CACHE_ENTRIES = 500;
/** Largest file read-file returns (the domain's cap; read-directory with contents has its own). */
export const MAX_READ_BYTES = MAX_READ_FILE_BYTES;

export interface LocalSandboxHostOptions {
  /** Folder holding one folder per project (`DATA_DIR/sandboxes`). Created when missing. */
  readonly root: string;
  /** The starter template; default `<cwd>/libs/adapters/src/sandbox/starter`. */
  readonly templateDir?: string;
  /** bubblewrap binary; null disables it. Default /usr/bin/bwrap when that file exists. */
  readonly bwrapPath?: string | null;
  /** Per-stream output cap of a command; default limits.outputBytes. */
  readonly outputCapBytes?: number;
  /** What one sandbox may use (memory, CPU share, processes, disk, open files, output); defaults in sandbox-limits.ts. */
  readonly limits?: Partial<SandboxLimits>;
  /**
   * Kiln's own folder for sandbox runtime state, never visible inside a sandbox: the generated
   * /etc files and each dev server's Unix socket. Default `<root>/../sandbox-run`.
   */
  readonly runtimeDir?: string;
  /** Use cgroups for memory, CPU and process limits when the machine offers them (default true). */
  readonly cgroups?: boolean;
  /**
   * How the project folder's size limit is enforced. 'volume': each project folder is its own
   * ext4 volume of that size (the kernel refuses writes past it; needs root and loop devices, see
   * ProjectVolumes); 'watch' (default): any one file by RLIMIT_FSIZE, the folder by a measurement
   * every second while something runs. main.ts uses 'volume' where the machine allows it.
   */
  readonly diskQuota?: 'volume' | 'watch';
  /** PATH for commands; default the host's PATH (the only variable taken from it). */
  readonly commandPath?: string;
  /**
   * Where the starter's dependencies are installed once and shared by every sandbox (each gets
   * `node_modules` as a link into it); read-only inside bubblewrap. Default `<root>/../sandbox-cache`,
   * beside the sandboxes folder (never inside it: that folder is hidden inside bubblewrap).
   * null: sandboxes get no node_modules (nothing can build or serve them).
   */
  readonly cacheDir?: string | null;
  /** The Vite launcher script; default `<cwd>/libs/adapters/src/sandbox/runtime/vite-launcher.mjs`. */
  readonly launcherFile?: string;
  /** A dev server without a devServer() call for this long is stopped (default 10 min). */
  readonly idleStopMs?: number;
  /** A dev server that does not listen within this long is stopped and 'failed' (default 2 min). */
  readonly devServerStartTimeoutMs?: number;
  /** One npm install of a project's dependency set may take this long (default 5 min). */
  readonly dependencyInstallTimeoutMs?: number;
}

export const DEFAULT_IDLE_STOP_MS = 10 * 60_000;
/** How long a measured project size is trusted by writes (commands may change it meanwhile). */
const SIZE_FRESH_MS = 5000;
/** The dev server's listening socket, as the launcher sees it (the fourth stdio entry). */
const LISTEN_FD = 3;
/** Each of find-errors' two steps (type-check, build) may take this long. */
export const FIND_ERRORS_TIMEOUT_SECONDS = 60;
/** The project's own TypeScript compiler (from the shared dependencies), run with `node`. */
const TSC_ENTRY = 'node_modules/typescript/bin/tsc';
export const DEFAULT_DEV_SERVER_START_TIMEOUT_MS = 120_000;
/** What the preview says while a project's new dependencies install (no dev server runs yet). */
export const INSTALLING_DEPENDENCIES_MESSAGE = 'Installing the packages in package.json';

/** What making node_modules match package.json did. */
type DependencySync =
  /** Nothing to do: the link is on the set's tree, or there is no link to manage. */
  | { readonly kind: 'unchanged' }
  /** The set was installed (or found installed) and the link re-pointed to it. */
  | { readonly kind: 'relinked'; readonly target: string }
  /** package.json asks for what cannot be installed, or npm failed: the link stays where it was. */
  | { readonly kind: 'failed'; readonly message: string };

const UNCHANGED: DependencySync = Object.freeze({ kind: 'unchanged' });

/**
 * SandboxHost on the local machine: each project is a folder `${root}/<projectId>` made from the
 * starter template, its git repository kept beside it in `${root}/.kiln-git/<projectId>` (out of
 * reach of the project's own commands, so hooks and config cannot be planted). File operations
 * walk every path one name at a time, never through a link out (ProjectFiles); commands run in bubblewrap
 * when it is installed, with a timeout that kills the process group, an output cap and a clean
 * environment. The starter's dependencies are installed once into a shared cache and linked into
 * each sandbox (StarterDependencyCache). Each active sandbox has a Vite dev server on a loopback
 * port (DevServers), started by Kiln's launcher in bubblewrap with the network shared, stopped
 * when idle; find-errors runs tsc and, when that is clean, a Vite build.
 */
export class LocalSandboxHost implements SandboxHost {
  private readonly root: string;
  private readonly templateDir: string;
  private readonly bwrapPath: string | null;
  private readonly outputCapBytes: number;
  private readonly commandPath: string;
  private readonly jail: BubblewrapJail | null;
  private readonly limits: SandboxLimits;
  private readonly cgroups: Promise<CgroupLimits>;
  private readonly runtimeDir: string;
  private isolationStatus: Promise<IsolationStatus> | undefined;
  private readonly diskWatch: DiskWatch;
  private readonly volumes: ProjectVolumes | null;
  /** Each project's size as last measured (writes add to it), for the disk-limit check of writes. */
  private readonly sizes = new Map<string, { bytes: number; at: number }>();
  /** The registry-only way out for npm installs (started on the first install, one per host). */
  private egress: Promise<RegistryEgressProxy> | undefined;
  /** Per sandbox, the commands running now: stopped when the project outgrows its disk limit. */
  private readonly limitStops = new Map<string, Set<AbortController>>();
  /** Sandboxes whose processes are being killed (over the disk limit): new ones wait for it. */
  private readonly stoppingOverDisk = new Map<string, Promise<void>>();
  private readonly cache: StarterDependencyCache | null;
  private readonly dependencies: DependencyCache | null;
  private readonly launcherFile: string;
  private readonly devServers: DevServers;
  private readonly listeners = new Set<(event: SandboxHostEvent) => void>();
  private realRoot: Promise<string> | undefined;
  private readonly locks = new KeyedQueue();
  /** One scan at a time per sandbox: scans share the build folder. */
  private readonly scans = new KeyedQueue();
  /** Scan results by scanKey, most recent last. */
  private readonly scanResults = new Map<string, ErrorScan>();
  /** One dependency sync at a time per sandbox (install, then the link swap). */
  private readonly dependencySyncs = new KeyedQueue();
  /** Syncs started by devServer() that nobody waits for, one per sandbox at most. */
  private readonly backgroundSyncs = new Map<string, Promise<void>>();

  constructor(options: LocalSandboxHostOptions) {
    this.root = path.resolve(options.root);
    this.templateDir = options.templateDir ?? path.resolve(process.cwd(), STARTER_TEMPLATE_RELATIVE_DIR);
    this.bwrapPath =
      options.bwrapPath === undefined ? (existsSync(DEFAULT_BWRAP_PATH) ? DEFAULT_BWRAP_PATH : null) : options.bwrapPath;
    this.limits = sandboxLimits({ ...options.limits, ...(options.outputCapBytes === undefined ? {} : { outputBytes: options.outputCapBytes }) });
    this.outputCapBytes = this.limits.outputBytes;
    this.commandPath = options.commandPath ?? process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin';
    this.runtimeDir = path.resolve(options.runtimeDir ?? path.join(path.dirname(this.root), 'sandbox-run'));
    this.jail = this.bwrapPath === null ? null : new BubblewrapJail({ bwrapPath: this.bwrapPath, runtimeDir: path.join(this.runtimeDir, 'etc') });
    // Limits by cgroup only for isolated sandboxes (they are what the cgroup would hold).
    this.cgroups = this.jail !== null && options.cgroups !== false ? CgroupLimits.detect(this.limits) : Promise.resolve(CgroupLimits.none(this.limits));
    this.cgroups.catch(() => undefined);
    this.volumes = options.diskQuota === 'volume' ? new ProjectVolumes({ volumesDir: path.join(path.dirname(this.root), 'sandbox-volumes'), sizeBytes: this.limits.diskBytes }) : null;
    this.diskWatch = new DiskWatch({
      limitBytes: this.limits.diskBytes,
      // Measured race-free (ProjectFiles: no link followed, node_modules not counted).
      sizeOf: (dir) => this.projectSize(path.basename(dir)),
      onOver: (sandboxId) => {
        if (this.stoppingOverDisk.has(sandboxId)) return;
        const stop = this.stopOverDisk(sandboxId).finally(() => this.stoppingOverDisk.delete(sandboxId));
        this.stoppingOverDisk.set(sandboxId, stop);
      },
    });
    const cacheDir = options.cacheDir === undefined ? path.join(path.dirname(this.root), 'sandbox-cache') : options.cacheDir;
    this.launcherFile = path.resolve(options.launcherFile ?? path.join(process.cwd(), VITE_LAUNCHER_RELATIVE_PATH));
    this.dependencies =
      cacheDir === null
        ? null
        : new DependencyCache({
            cacheDir: path.resolve(cacheDir),
            installer: (request) => this.installDependencies(request),
            ...(options.dependencyInstallTimeoutMs === undefined ? {} : { installTimeoutMs: options.dependencyInstallTimeoutMs }),
          });
    this.cache =
      this.dependencies === null
        ? null
        : new StarterDependencyCache({ dependencies: this.dependencies, templateDir: this.templateDir, launcherFile: this.launcherFile });
    this.devServers = new DevServers({
      idleStopMs: options.idleStopMs ?? DEFAULT_IDLE_STOP_MS,
      startTimeoutMs: options.devServerStartTimeoutMs ?? DEFAULT_DEV_SERVER_START_TIMEOUT_MS,
      socketDir: path.join(this.runtimeDir, 'dev'),
      launch: (sandboxId, listenFd) => this.launchDevServer(sandboxId, listenFd),
      onChange: (sandboxId, state) => this.emit({ type: 'dev-server', sandboxId, state }),
    });
  }

  /**
   * Installs the starter's dependencies into the shared cache unless they are there already (the
   * API calls it at start-up so the first project does not wait for npm). ensure calls it too.
   */
  async prepareTemplate(): Promise<void> {
    await this.cache?.prepare();
  }

  /**
   * The disk quota this machine can enforce for sandboxes under `root`: 'volume' (one ext4 volume
   * per project, the kernel refuses writes past the limit) where root and loop devices allow it,
   * else 'watch'. main.ts uses it; so does the escape suite, to test what production runs.
   */
  static async diskQuotaFor(root: string): Promise<'volume' | 'watch'> {
    return (await ProjectVolumes.available(path.dirname(path.resolve(root)))) ? 'volume' : 'watch';
  }

  /** Whether shell lines run (inside bubblewrap); without it only argument vectors run. */
  get isolated(): boolean {
    return this.bwrapPath !== null;
  }

  /**
   * Whether sandboxes are really isolated here: bubblewrap is installed and can make an
   * unprivileged user namespace (tried once, with a real sandboxed `true`), and which limits apply.
   */
  isolation(): Promise<IsolationStatus> {
    this.isolationStatus ??= (async () => {
      const status = await probeIsolation(this.jail);
      return { ...status, limits: (await this.cgroups).describe() };
    })();
    return this.isolationStatus;
  }

  /**
   * Creates the sandbox from the starter when missing. An existing one gets its node_modules link
   * back when it is missing or dangling, and re-pointed to the installed tree of its package.json's
   * dependency set (installing that set first when no project asked for it before). An install
   * failure does not fail ensure: the link stays, and find-errors and the dev server report it.
   */
  async ensure(projectId: string): Promise<SandboxInfo> {
    const info = await this.serialised(projectId, async () => {
      const dir = await this.projectDir(projectId);
      let machineCreated = false;
      if (!existsSync(dir)) {
        // Before anything is written, so a failed install leaves no half sandbox behind.
        const starter = await this.cache?.prepare();
        try {
          await this.volumes?.ensureMounted(dir);
          const templateModules = path.join(this.templateDir, 'node_modules');
          await cp(this.templateDir, dir, { recursive: true, errorOnExist: true, force: false, filter: (src) => src !== templateModules });
          if (starter !== undefined) await symlink(starter.nodeModules, path.join(dir, 'node_modules'), 'dir');
          await this.initRepository(projectId);
        } catch (e) {
          // Half a sandbox would later pass for a whole one: remove it so the next ensure retries.
          await this.volumes?.remove(dir).catch(() => undefined);
          await rm(dir, { recursive: true, force: true });
          await rm(await this.gitDir(projectId), { recursive: true, force: true });
          throw e;
        }
        machineCreated = true;
      } else {
        await this.volumes?.ensureMounted(dir);
        if (this.cache !== null) await this.repairDependencyLink(dir);
      }
      return {
        status: 'created',
        message: 'Sandbox files ready; the dev server starts on its first request',
        appName: projectId,
        projectId,
        url: '',
        ipv4Address: null,
        ipv6Address: null,
        machineCreated,
      };
    });
    if (!info.machineCreated) {
      // Opening a project never fails on its dependencies; find-errors and the dev server report them.
      await this.syncDependencies(projectId, await this.projectDir(projectId), { restartDevServer: true }).catch(() => undefined);
    }
    return info;
  }

  // File routes: ProjectFiles walks each path one name at a time from the project folder, never
  // through a link (files/project-files.ts), so a command swapping folders and links cannot send
  // the API (unsandboxed) outside the project.

  async readFile(sandboxId: string, requested: string): Promise<string> {
    return (await this.files(sandboxId)).readFile(requested);
  }

  /**
   * Refused (SANDBOX.DISK_LIMIT, nothing written) when it would take the project past its disk
   * limit (`options.maxProjectBytes`, default limits.diskBytes). The project is measured exactly
   * only when its last known size (at most SIZE_FRESH_MS old) leaves less than a tenth of the limit
   * free after this write; the volume (or the watch) still enforces the rest.
   */
  async writeFile(sandboxId: string, requested: string, content: string, options: WriteFileOptions = {}): Promise<void> {
    const files = await this.files(sandboxId);
    this.devServers.filesChanged(sandboxId);
    const limit = options.maxProjectBytes ?? this.limits.diskBytes;
    const bytes = Buffer.byteLength(content, 'utf8');
    const known = await this.knownSize(sandboxId);
    const exact = known + bytes > limit * 0.9;
    await files.writeFile(requested, content, exact ? { ...options, maxProjectBytes: limit } : options);
    const entry = this.sizes.get(sandboxId);
    if (entry !== undefined) entry.bytes += bytes;
  }

  async deleteFile(sandboxId: string, requested: string): Promise<void> {
    const files = await this.files(sandboxId);
    this.devServers.filesChanged(sandboxId);
    await files.deleteFile(requested);
  }

  async createDirectory(sandboxId: string, requested: string): Promise<void> {
    await (await this.files(sandboxId)).createDirectory(requested);
  }

  async readDirectory(sandboxId: string, requested: string, options: ReadDirectoryOptions = {}): Promise<readonly FileListEntry[]> {
    return (await this.files(sandboxId)).readDirectory(requested, options);
  }

  async getTree(sandboxId: string, requested: string, ignore: readonly string[] = TREE_IGNORE_LIST): Promise<readonly FileTreeEntry[]> {
    return (await this.files(sandboxId)).getTree(requested, ignore);
  }

  /** The project folder's size in bytes, race-free (no link followed, node_modules' tree not counted). */
  /** The project's size as last measured, measured again when older than SIZE_FRESH_MS. */
  private async knownSize(sandboxId: string): Promise<number> {
    const known = this.sizes.get(sandboxId);
    const now = Date.now();
    if (known !== undefined && now - known.at < SIZE_FRESH_MS) return known.bytes;
    const bytes = await this.projectSize(sandboxId);
    this.sizes.set(sandboxId, { bytes, at: now });
    return bytes;
  }

  async projectSize(sandboxId: string): Promise<number> {
    return (await this.files(sandboxId)).size();
  }

  async runCommand(sandboxId: string, command: SandboxCommand, options: RunCommandOptions = {}): Promise<CommandResult> {
    const projectDir = await this.existingProjectDir(sandboxId);
    const cwd = await this.resolve(sandboxId, options.workingDir ?? DEFAULT_WORKING_DIR);
    if (!(await stat(cwd)).isDirectory()) return notRunnable(`Not a folder: ${options.workingDir ?? ''}`);
    const timeoutMs = Math.max(1, options.timeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS) * 1000;
    this.devServers.filesChanged(sandboxId); // a command may change files

    let argv: readonly string[];
    if (typeof command === 'string') {
      if (this.bwrapPath !== null) argv = ['bash', '-c', command];
      else {
        const words = splitPlainWords(command);
        if (words === null) {
          return notRunnable('Shell syntax needs the sandboxed shell (bubblewrap), which is not installed on this host');
        }
        argv = words;
      }
    } else {
      argv = command;
    }
    if (argv.length === 0 || argv[0] === '') return notRunnable('Empty command');

    const env = this.commandEnv(projectDir);
    const [file, ...args] = await this.jailed(sandboxId, projectDir, cwd, argv);
    const limit = new AbortController();
    const stops = this.limitStops.get(sandboxId) ?? new Set<AbortController>();
    stops.add(limit);
    this.limitStops.set(sandboxId, stops);
    const release = this.volumes === null ? await this.diskWatch.watch(sandboxId, projectDir) : () => undefined;
    try {
      return await this.spawnCapped(file as string, args, {
        // In bubblewrap the working folder is entered inside the sandbox's own view (--chdir).
        cwd: this.jail === null ? cwd : projectDir,
        env,
        timeoutMs,
        limit: { signal: limit.signal, note: `[stopped: the project folder is over its disk limit of ${formatBytes(this.limits.diskBytes)}]\n` },
        ...(options.onOutput === undefined ? {} : { onOutput: options.onOutput }),
        ...(options.signal === undefined ? {} : { abort: options.signal }),
      });
    } finally {
      release();
      stops.delete(limit);
      if (stops.size === 0) this.limitStops.delete(sandboxId);
    }
  }

  async cleanup(sandboxId: string): Promise<void> {
    await this.projectDir(sandboxId); // a malformed id rejects before anything happens
    await this.devServers.remove(sandboxId);
    await (await this.cgroups).remove(sandboxId);
    await this.serialised(sandboxId, async () => {
      const dir = await this.projectDir(sandboxId);
      this.sizes.delete(sandboxId);
      await this.volumes?.remove(dir);
      await rm(dir, { recursive: true, force: true });
      await rm(await this.gitDir(sandboxId), { recursive: true, force: true });
    });
  }

  async gitCommit(sandboxId: string, message: string): Promise<GitCommitResult> {
    if (message.trim() === '') return { success: false, message: 'A commit message is required' };
    return this.serialised(sandboxId, async () => {
      try {
        await this.existingProjectDir(sandboxId);
        const hash = await this.commitAll(sandboxId, message);
        return hash === null ? { success: false, message: 'Nothing to commit' } : { success: true, message, hash };
      } catch (e) {
        return { success: false, message: `Commit failed: ${errorText(e)}` };
      }
    });
  }

  async gitHistory(sandboxId: string): Promise<readonly SandboxCommit[]> {
    await this.existingProjectDir(sandboxId);
    const out = await this.git(sandboxId, ['log', '--no-color', '--format=%x1e%H%x1f%cI%x1f%s', '--name-only', '--no-renames']);
    return out
      .split('\x1e')
      .filter((chunk) => chunk.trim() !== '')
      .map((chunk) => {
        const [header = '', ...files] = chunk.split('\n');
        const [hash = '', date = '', subject = ''] = header.split('\x1f');
        return { hash, message: subject, date: new Date(date), filesChanged: files.filter((f) => f !== '') };
      });
  }

  async gitRestore(sandboxId: string, commitHash: string): Promise<GitRestoreResult> {
    if (!/^[0-9a-f]{4,40}$/i.test(commitHash)) return { success: false, message: `Unknown version: ${commitHash}` };
    this.devServers.filesChanged(sandboxId);
    return this.serialised(sandboxId, async () => {
      try {
        await this.existingProjectDir(sandboxId);
        let target: string;
        try {
          target = (await this.git(sandboxId, ['rev-parse', '--verify', '--quiet', `${commitHash}^{commit}`])).trim();
        } catch {
          return { success: false, message: `Unknown version: ${commitHash}` };
        }
        const short = target.slice(0, 7);
        await this.commitAll(sandboxId, `Changes before restoring ${short}`);
        await this.git(sandboxId, ['read-tree', '--reset', '-u', target]);
        const hash = await this.commitAll(sandboxId, `Restore version ${short}`);
        if (hash === null) return { success: true, message: `Already at version ${short}` };
        return { success: true, message: `Restored version ${short}`, hash };
      } catch (e) {
        return { success: false, message: `Restore failed: ${errorText(e)}` };
      }
    });
  }

  /**
   * The TypeScript compiler over the project (`tsc --noEmit`), and when it finds no errors (warnings
   * aside) a Vite build into `.kiln-build/dist`, which catches what tsc does not see (imports Vite
   * cannot resolve, syntax in plain JS). Both run as sandboxed commands. A scan that could not run
   * (timeout, compiler missing, launcher crash) rejects: the API answers zero counts (SPEC §8).
   */
  async findErrors(sandboxId: string): Promise<ErrorScan> {
    const projectDir = await this.existingProjectDir(sandboxId);
    return this.scans.run(sandboxId, async () => {
      // First make node_modules what package.json asks for (installing a new set once).
      const dependencies = await this.syncDependencies(sandboxId, projectDir, { restartDevServer: true });
      if (dependencies.kind !== 'failed') return this.scanOrReuse(sandboxId, projectDir);
      // An error of the project, not of the scan: the assistant's repair and revert must see it.
      // The files are still scanned with the previous dependencies (an import of the missing
      // package shows up there too).
      const problem: CodeError = { message: dependencies.message, file: 'package.json', line: 1, column: 1, severity: 'error' };
      const scan = await this.scanOrReuse(sandboxId, projectDir).catch(() => null);
      return errorScanFrom([problem, ...(scan?.errors ?? [])]);
    });
  }

  private async scanOrReuse(sandboxId: string, projectDir: string): Promise<ErrorScan> {
    // The same files with the same dependencies give the same scan: an AI turn's baseline is
    // usually the previous turn's result, and every new project starts from the same starter.
    const key = await this.scanKey(sandboxId, projectDir);
    const known = key === null ? undefined : this.scanResults.get(key);
    if (known !== undefined) return known;
    const scan = await this.scanNow(sandboxId, projectDir);
    // Kept only when nothing changed while it ran.
    if (key !== null && (await this.scanKey(sandboxId, projectDir)) === key) this.rememberScan(key, scan);
    return scan;
  }

  private async scanNow(sandboxId: string, projectDir: string): Promise<ErrorScan> {
    const timeoutSeconds = FIND_ERRORS_TIMEOUT_SECONDS;
    // The type-check and the build run side by side (two processes, about half the wait); the
    // build's errors count only when the type-check found none, as if it ran after it.
    const [tsc, build] = await Promise.all([
      this.runCommand(sandboxId, [process.execPath, TSC_ENTRY, '--noEmit', '--pretty', 'false', '-p', '.'], { timeoutSeconds }),
      this.launcher().then((launcher) => this.runCommand(sandboxId, [process.execPath, launcher, 'build', projectDir], { timeoutSeconds })),
    ]);
    if (tsc.timedOut) throw new Error(`Type-checking did not finish within ${timeoutSeconds} s`);
    const typeErrors = parseTscOutput(`${tsc.stdout}\n${tsc.stderr}`, projectDir);
    if (tsc.exitCode !== 0 && typeErrors.length === 0) throw new Error(`Type-checking could not run: ${lastLines(tsc.stderr || tsc.stdout)}`);
    const typeScan = errorScanFrom(typeErrors);
    if (typeScan.errorCount > 0) return typeScan;

    if (build.timedOut) throw new Error(`The build did not finish within ${timeoutSeconds} s`);
    if (build.exitCode === 0) return typeScan;
    const buildErrors = parseViteBuildErrors(build.stdout, projectDir);
    if (buildErrors === null) throw new Error(`The build could not run: ${lastLines(build.stderr || build.stdout)}`);
    return errorScanFrom([...typeErrors, ...buildErrors]);
  }

  /**
   * What a scan's result depends on: the project's files (the git tree of the working copy, staged
   * into a private index so the real one is untouched), where node_modules points (one installed
   * tree per dependency set, never changed once in place, so the link names its content) and
   * Kiln's launcher. null when it cannot be told (no cache then). Files the project's own
   * .gitignore hides are not part of it.
   */
  private async scanKey(sandboxId: string, projectDir: string): Promise<string | null> {
    try {
      const index = { GIT_INDEX_FILE: path.join(await this.gitDir(sandboxId), 'kiln-scan-index') };
      await this.git(sandboxId, ['add', '--all'], index);
      const tree = (await this.git(sandboxId, ['write-tree'], index)).trim();
      const deps = await readlink(path.join(projectDir, 'node_modules')).catch(() => 'none');
      return `${tree}|${deps}|${this.launcherFile}`;
    } catch {
      return null;
    }
  }

  private rememberScan(key: string, scan: ErrorScan): void {
    this.scanResults.delete(key);
    this.scanResults.set(key, scan);
    // Oldest first in a Map: keep the most recent SCAN_CACHE_ENTRIES.
    while (this.scanResults.size > SCAN_CACHE_ENTRIES) this.scanResults.delete(this.scanResults.keys().next().value as string);
  }

  async restartDev(sandboxId: string): Promise<void> {
    const projectDir = await this.existingProjectDir(sandboxId);
    // Installed before the restart, not inside it, so preview requests are not held meanwhile. A
    // failure is the launch's to report (it syncs again and gets the same error at once).
    await this.syncDependencies(sandboxId, projectDir, { restartDevServer: false });
    await this.devServers.restart(sandboxId);
  }

  /**
   * The dev server's state, starting it when needed. When package.json asks for a dependency set
   * that is not installed yet, the install runs in the background: a running server keeps serving
   * (it restarts on the new tree once it is linked), a stopped one is reported as starting with
   * INSTALLING_DEPENDENCIES_MESSAGE until then. A set already installed is linked at once.
   */
  async devServer(sandboxId: string): Promise<DevServerState> {
    const projectDir = await this.existingProjectDir(sandboxId);
    const wanted = await this.wantedDependencies(sandboxId, projectDir);
    if (wanted !== null && 'set' in wanted && this.dependencies !== null) {
      const current = await readlink(path.join(projectDir, 'node_modules')).catch(() => null);
      if (current !== wanted.target || !(await isDirectory(wanted.target))) {
        if (await isDirectory(wanted.target)) {
          await this.syncDependencies(sandboxId, projectDir, { restartDevServer: true });
        } else if (!this.dependencies.recentlyFailed(wanted.set)) {
          this.syncInBackground(sandboxId, projectDir);
          if (!this.devServers.isActive(sandboxId)) return { status: 'starting', socketPath: null, message: INSTALLING_DEPENDENCIES_MESSAGE };
        }
        // A set that failed just now: the launch reports npm's error (without running it again).
      }
    }
    return this.devServers.request(sandboxId);
  }

  subscribe(listener: (event: SandboxHostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async stopAll(): Promise<void> {
    await this.devServers.stopAll();
    await (await this.cgroups).close();
    await this.volumes?.unmountAll();
    const egress = this.egress;
    this.egress = undefined;
    await egress?.then((proxy) => proxy.stop()).catch(() => undefined);
  }

  // ---------------------------------------------------------------------------------------------

  private emit(event: SandboxHostEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own
      }
    }
  }

  /** What every process in a sandbox gets: none of the API's variables. */
  private commandEnv(projectDir: string): NodeJS.ProcessEnv {
    return { PATH: this.commandPath, HOME: projectDir, LANG: 'C.UTF-8' };
  }

  /** The launcher as seen from inside the sandbox: its copy in the dependency cache. */
  private async launcher(): Promise<string> {
    return (await this.cache?.prepare())?.launcher ?? this.launcherFile;
  }

  /**
   * `vite-launcher.mjs dev <project>`, in bubblewrap like a command (no network at all): it serves
   * on the listening Unix socket DevServers made, handed over as fd 3, which the preview proxy
   * connects to. Its own process group, so stopping kills everything it started.
   */
  private async launchDevServer(sandboxId: string, listenFd: number): Promise<ChildProcess> {
    const projectDir = await this.existingProjectDir(sandboxId);
    // Vite must start on the dependencies package.json asks for; if they cannot be installed the
    // dev server fails with npm's message (the preview shows it).
    const dependencies = await this.syncDependencies(sandboxId, projectDir, { restartDevServer: false });
    if (dependencies.kind === 'failed') throw new Error(dependencies.message);
    const argv = [process.execPath, await this.launcher(), 'dev', projectDir, String(LISTEN_FD)];
    const [file, ...args] = await this.jailed(sandboxId, projectDir, projectDir, argv);
    // stdin stays an open pipe we never write to: the launcher exits when it closes (this process died).
    // The project's config and plugins run in it: its writes count against the disk limit too.
    const release = this.volumes === null ? await this.diskWatch.watch(sandboxId, projectDir) : () => undefined;
    const child = spawn(file as string, args, { cwd: projectDir, env: this.commandEnv(projectDir), detached: true, stdio: ['pipe', 'pipe', 'pipe', listenFd] });
    child.once('close', release);
    child.once('error', release);
    return child;
  }

  /** The race-free file operations of an existing sandbox (a malformed id or a missing sandbox rejects). */
  private async files(sandboxId: string): Promise<ProjectFiles> {
    return new ProjectFiles(await this.existingProjectDir(sandboxId));
  }

  private async sandboxRoot(): Promise<string> {
    this.realRoot ??= (async () => {
      await mkdir(this.root, { recursive: true });
      return realpath(this.root);
    })();
    return this.realRoot;
  }

  private async projectDir(sandboxId: string): Promise<string> {
    if (!isValidSandboxId(sandboxId)) throw new Error(`Invalid sandbox id: ${JSON.stringify(sandboxId)}`);
    return path.join(await this.sandboxRoot(), sandboxId);
  }

  private async gitDir(sandboxId: string): Promise<string> {
    if (!isValidSandboxId(sandboxId)) throw new Error(`Invalid sandbox id: ${JSON.stringify(sandboxId)}`);
    return path.join(await this.sandboxRoot(), GIT_DIRS, sandboxId);
  }

  private async existingProjectDir(sandboxId: string): Promise<string> {
    const dir = await this.projectDir(sandboxId);
    const info = await lstat(dir).catch(() => null);
    if (info === null || !info.isDirectory()) throw new Error(`No sandbox for project ${sandboxId}`);
    // After a restart the folder is an empty mount point until its volume is mounted again.
    await this.volumes?.ensureMounted(dir);
    return dir;
  }

  /**
   * The absolute path for `requested`: the domain rule first, then the deepest part that exists
   * on disk is realpath'd and must still be inside the project (symlinks pointing out are refused).
   * Check-then-use: only a command's working folder uses it (bubblewrap enters it inside the
   * sandbox); the file routes never do (ProjectFiles).
   */
  private async resolve(sandboxId: string, requested: string): Promise<string> {
    const dir = await this.existingProjectDir(sandboxId);
    const relative = resolveSandboxPath(requested);
    if (!relative.ok) throw new SandboxPathRefused(relative.error);
    const abs = relative.value === '.' ? dir : path.join(dir, relative.value);
    let probe = abs;
    let suffix = '';
    for (;;) {
      try {
        const real = await realpath(probe);
        if (!isWithinRoot(dir, real)) throw new SandboxPathRefused(sandboxPathOutside(requested, 'symlink-outside'));
        return suffix === '' ? real : path.join(real, suffix);
      } catch (e) {
        if (e instanceof SandboxPathRefused) throw e;
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
        // A dangling symlink is refused outright: writing through it could land anywhere.
        if ((await lstat(probe).catch(() => null))?.isSymbolicLink() === true) {
          throw new SandboxPathRefused(sandboxPathOutside(requested, 'symlink-outside'));
        }
        if (probe === dir) throw e;
        suffix = suffix === '' ? path.basename(probe) : path.join(path.basename(probe), suffix);
        probe = path.dirname(probe);
      }
    }
  }

  /**
   * Makes the project's node_modules link point at the installed tree of its package.json's
   * dependency set, installing that set first (once, shared by every project asking for it).
   * Only a node_modules that is a link is managed: a missing one is ensure's to restore, a real
   * folder is left alone, and so is a project without package.json. One sync at a time per
   * sandbox; the link is swapped atomically (a new link renamed over the old), under the sandbox's
   * git lock so no commit sees the temporary link. When the link changed and `restartDevServer`,
   * a starting or running dev server is restarted so Vite sees the new packages.
   */
  private async syncDependencies(sandboxId: string, projectDir: string, { restartDevServer }: { restartDevServer: boolean }): Promise<DependencySync> {
    const dependencies = this.dependencies;
    if (dependencies === null) return UNCHANGED;
    const result = await this.dependencySyncs.run(sandboxId, async (): Promise<DependencySync> => {
      const wanted = await this.wantedDependencies(sandboxId, projectDir);
      if (wanted === null) return UNCHANGED;
      if (!('set' in wanted)) return { kind: 'failed', message: wanted.problem };
      const link = path.join(projectDir, 'node_modules');
      if ((await readlink(link).catch(() => null)) === wanted.target && (await isDirectory(wanted.target))) return UNCHANGED;
      let target: string;
      try {
        target = await dependencies.install(wanted.set);
      } catch (e) {
        return { kind: 'failed', message: `Installing the packages in package.json failed: ${errorText(e)}` };
      }
      await this.serialised(sandboxId, async () => {
        // Still a link (a command may have replaced it meanwhile)? Then swap it.
        if ((await lstat(link).catch(() => null))?.isSymbolicLink() !== true) return;
        const temp = path.join(projectDir, `.kiln-node_modules-${randomBytes(6).toString('hex')}`);
        await symlink(target, temp, 'dir');
        try {
          await rename(temp, link);
        } catch (e) {
          await unlink(temp).catch(() => undefined);
          throw e;
        }
      });
      return { kind: 'relinked', target };
    });
    if (result.kind === 'relinked' && restartDevServer && this.devServers.isActive(sandboxId)) await this.devServers.restart(sandboxId);
    return result;
  }

  /** A sync nobody waits for (devServer's); at most one queued per sandbox. */
  private syncInBackground(sandboxId: string, projectDir: string): void {
    if (this.backgroundSyncs.has(sandboxId)) return;
    const run = this.syncDependencies(sandboxId, projectDir, { restartDevServer: true })
      .then(() => undefined, () => undefined) // a failure shows at the launch and in find-errors
      .finally(() => this.backgroundSyncs.delete(sandboxId));
    this.backgroundSyncs.set(sandboxId, run);
  }

  /**
   * What package.json asks for: its dependency set and where that set's tree is, or why it cannot
   * be installed. null: nothing to manage (no cache, node_modules is not a link, no package.json).
   */
  private async wantedDependencies(
    sandboxId: string,
    projectDir: string,
  ): Promise<{ readonly set: DependencySet; readonly target: string } | { readonly problem: string } | null> {
    if (this.dependencies === null) return null;
    if ((await lstat(path.join(projectDir, 'node_modules')).catch(() => null))?.isSymbolicLink() !== true) return null;
    if ((await lstat(path.join(projectDir, 'package.json')).catch(() => null)) === null) return null;
    let text: string;
    try {
      text = await (await this.files(sandboxId)).readFile('package.json');
    } catch (e) {
      return { problem: `package.json cannot be read: ${errorText(e)}` };
    }
    const set = dependencySetFromPackageJson(text);
    if (!set.ok) return { problem: set.error.message };
    return { set: set.value, target: await this.dependencies.nodeModulesFor(set.value) };
  }

  /**
   * Runs one npm install: inside bubblewrap when it is installed, in a network namespace of its own
   * whose only way out is the egress proxy (the npm registry, nothing else: docs/decisions.md
   * "Dependency installs reach only the registry"). Tests count these.
   */
  protected installDependencies(request: NpmInstallRequest): Promise<void> {
    const jail = this.jail;
    const isolate =
      jail === null
        ? undefined
        : async (argv: readonly string[], writable: readonly string[], cwd: string) => {
            const proxy = await this.egressProxy();
            const forwarder = await installEgressForwarder(await (this.dependencies as DependencyCache).realCacheDir());
            return jailCommand({
              limits: this.limits,
              cgroupProcs: [],
              prlimit: existsSync(PRLIMIT_PATH),
              bwrap: [
                jail.bwrapPath,
                ...(await jail.args({ writable, readOnly: [path.dirname(proxy.socketPath), forwarder], cwd, network: 'egress' })),
              ],
              argv: throughEgressForwarder(argv, { forwarder, socketPath: proxy.socketPath }),
            });
          };
    return npmInstaller({ commandPath: this.commandPath, ...(isolate === undefined ? {} : { isolate }) })(request);
  }

  private egressProxy(): Promise<RegistryEgressProxy> {
    if (this.egress === undefined) {
      const attempt = (async () => {
        // One proxy per host instance: several may share a data folder (tests, a restart overlapping).
        const socketPath = path.join(this.runtimeDir, 'egress', `${process.pid}-${randomBytes(3).toString('hex')}.sock`);
        const proxy = new RegistryEgressProxy({ socketPath });
        await proxy.start();
        return proxy;
      })();
      this.egress = attempt;
      // A failed start is tried again by the next install.
      attempt.catch(() => {
        if (this.egress === attempt) this.egress = undefined;
      });
    }
    return this.egress;
  }

  /**
   * An existing sandbox whose node_modules link is missing or dangling (the cache was removed)
   * gets a link to the current starter's dependencies again. A real node_modules folder is left.
   */
  private async repairDependencyLink(dir: string): Promise<void> {
    const link = path.join(dir, 'node_modules');
    const info = await lstat(link).catch(() => null);
    if (this.cache === null || (info !== null && (!info.isSymbolicLink() || (await stat(link).catch(() => null)) !== null))) return;
    const starter = await this.cache.prepare();
    if (info !== null) await unlink(link);
    await symlink(starter.nodeModules, link, 'dir');
  }

  /**
   * A sandboxed process's whole command line (docs/security.md "Project sandboxes"): in the
   * sandbox's cgroup, with its rlimits, in bubblewrap with the project writable and the dependency
   * tree read-only. Without bubblewrap, the argument vector as it is (not isolated: start-up warns).
   */
  private async jailed(sandboxId: string, projectDir: string, cwd: string, argv: readonly string[]): Promise<string[]> {
    // A sandbox being stopped for its disk limit takes no new process until all of it is gone.
    await this.stoppingOverDisk.get(sandboxId);
    if (this.jail === null) return [...argv];
    const cgroups = await this.cgroups;
    return jailCommand({
      limits: this.limits,
      cgroupProcs: await cgroups.join(sandboxId),
      prlimit: existsSync(PRLIMIT_PATH),
      bwrap: [this.jail.bwrapPath, ...(await this.isolationArgs({ writable: [projectDir], cwd, network: 'none', dependencyCache: true }))],
      argv,
    });
  }

  /**
   * bubblewrap's arguments (BubblewrapJail): only `writable` writable; project processes get the
   * dependency cache read-only (npm's download cache inside it hidden), npm installs the network.
   */
  private async isolationArgs({
    writable,
    cwd,
    network,
    dependencyCache,
  }: {
    readonly writable: readonly string[];
    readonly cwd: string;
    readonly network: 'none';
    readonly dependencyCache: boolean;
  }): Promise<string[]> {
    if (this.jail === null) throw new Error('bubblewrap is not installed');
    const cacheDir = dependencyCache ? await this.cache?.realCacheDir() : undefined;
    const npmCache = cacheDir === undefined ? undefined : path.join(cacheDir, NPM_CACHE_DIR);
    return this.jail.args({
      writable,
      readOnly: cacheDir === undefined ? [] : [cacheDir],
      // npm's own cache (downloads, metadata) is no project's business.
      hidden: npmCache !== undefined && existsSync(npmCache) ? [npmCache] : [],
      cwd,
      network,
    });
  }

  /**
   * The sandbox's folder went over its disk limit while something ran in it: its commands are
   * stopped (their results say why) and every process of the sandbox is killed, the dev server too
   * (it fails with the reason, and starts again on the next request, once files were removed).
   */
  private async stopOverDisk(sandboxId: string): Promise<void> {
    for (const stop of this.limitStops.get(sandboxId) ?? []) stop.abort();
    await (await this.cgroups).killAll(sandboxId);
    await this.devServers.remove(sandboxId);
  }

  private spawnCapped(
    file: string,
    args: readonly string[],
    {
      cwd,
      env,
      timeoutMs,
      onOutput,
      abort,
      limit,
    }: {
      cwd: string;
      env: NodeJS.ProcessEnv;
      timeoutMs: number;
      onOutput?: RunCommandOptions['onOutput'];
      abort?: RunCommandOptions['signal'];
      /** A limit the host enforces: when it fires the command stops with `note` at the end of stderr. */
      limit?: { signal: AbortSignal; note: string };
    },
  ): Promise<CommandResult> {
    if (abort?.aborted === true) {
      return Promise.resolve({ exitCode: INTERRUPTED_EXIT_CODE, stdout: '', stderr: '[interrupted]\n', timedOut: false, outputTruncated: false, interrupted: true });
    }
    return new Promise((resolve) => {
      const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout = new CappedBuffer(this.outputCapBytes, onOutput && ((text) => onOutput('stdout', text)));
      const stderr = new CappedBuffer(this.outputCapBytes, onOutput && ((text) => onOutput('stderr', text)));
      let timedOut = false;
      let settled = false;
      const killGroup = () => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
        // A process that left the group may still hold the pipes: stop reading them.
        setTimeout(() => finish(null, 'SIGKILL'), 500).unref();
      }, timeoutMs);
      // Ctrl+C: the whole group goes, as at the timeout, and the result says it was interrupted.
      let interrupted = false;
      const onAbort = () => {
        if (settled) return;
        interrupted = true;
        killGroup();
        setTimeout(() => finish(null, 'SIGKILL'), 500).unref();
      };
      abort?.addEventListener('abort', onAbort);
      let overLimit = false;
      const onLimit = () => {
        if (settled) return;
        overLimit = true;
        killGroup();
        setTimeout(() => finish(null, 'SIGKILL'), 500).unref();
      };
      limit?.signal.addEventListener('abort', onLimit);
      const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        abort?.removeEventListener('abort', onAbort);
        limit?.signal.removeEventListener('abort', onLimit);
        killGroup(); // background children of a finished command do not outlive it
        child.stdout.destroy();
        child.stderr.destroy();
        if (spawnError !== undefined) stderr.push(Buffer.from(`${spawnError.message}\n`));
        const exitCode = timedOut ? TIMED_OUT_EXIT_CODE : interrupted ? INTERRUPTED_EXIT_CODE : overLimit ? LIMIT_EXIT_CODE : spawnError !== undefined ? 127 : (code ?? (signal === null ? 1 : 128 + 9));
        const note = timedOut
          ? stderr.note(`[stopped after ${timeoutMs / 1000} s]\n`)
          : interrupted
            ? stderr.note('[interrupted]\n')
            : overLimit && limit !== undefined
              ? stderr.note(limit.note)
              : '';
        resolve({
          exitCode,
          stdout: stdout.text(),
          stderr: `${stderr.text()}${note}`,
          timedOut,
          outputTruncated: stdout.truncated || stderr.truncated,
          ...(interrupted ? { interrupted: true } : {}),
        });
      };
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      child.on('error', (e) => finish(null, null, e));
      child.on('close', (code, signal) => finish(code, signal));
    });
  }

  private async initRepository(sandboxId: string): Promise<void> {
    const gitDir = await this.gitDir(sandboxId);
    await rm(gitDir, { recursive: true, force: true });
    await mkdir(path.dirname(gitDir), { recursive: true });
    await this.git(sandboxId, ['init', '--quiet', '--initial-branch=main']);
    await mkdir(path.join(gitDir, 'info'), { recursive: true });
    await writeFile(path.join(gitDir, 'info', 'exclude'), GIT_EXCLUDES, 'utf8');
    await this.commitAll(sandboxId, 'Initial version');
  }

  /** Stages everything and commits; null when there was nothing to commit. */
  private async commitAll(sandboxId: string, message: string): Promise<string | null> {
    await this.git(sandboxId, ['add', '--all']);
    const status = await this.git(sandboxId, ['status', '--porcelain']);
    if (status.trim() === '') return null;
    await this.git(sandboxId, ['commit', '--quiet', '--no-verify', '-m', message]);
    return (await this.git(sandboxId, ['rev-parse', 'HEAD'])).trim();
  }

  /** git with our own config only: the repository lives outside the project's reach. */
  private async git(sandboxId: string, args: readonly string[], extraEnv: Readonly<Record<string, string>> = {}): Promise<string> {
    const workTree = await this.projectDir(sandboxId);
    const gitDir = await this.gitDir(sandboxId);
    const env = {
      PATH: this.commandPath,
      HOME: workTree,
      LANG: 'C.UTF-8',
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: GIT_AUTHOR.name,
      GIT_AUTHOR_EMAIL: GIT_AUTHOR.email,
      GIT_COMMITTER_NAME: GIT_AUTHOR.name,
      GIT_COMMITTER_EMAIL: GIT_AUTHOR.email,
      GIT_TERMINAL_PROMPT: '0',
      ...extraEnv,
    };
    const safe = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgSign=false', '-c', 'core.quotePath=false'];
    return new Promise((resolve, reject) => {
      execFile('git', [...safe, ...args], { cwd: workTree, env, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args[0] ?? ''}: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      });
    });
  }

  /** One operation at a time per sandbox for creation and git (git's index lock). */
  private serialised<T>(sandboxId: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(sandboxId, work);
  }
}

/**
 * One output stream, kept up to the cap. `live` gets the kept text as it arrives (whole UTF-8
 * characters only), then the truncation marker once.
 */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly decoder = new StringDecoder('utf8');
  truncated = false;
  constructor(
    private readonly cap: number,
    private readonly live?: (text: string) => void,
  ) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      this.markTruncated();
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    this.tell(this.decoder.write(kept));
    if (kept.length < chunk.length) this.markTruncated();
  }
  private markTruncated(): void {
    if (this.truncated) return;
    this.truncated = true;
    this.tell(`${this.decoder.end()}${this.marker()}`);
  }
  /** Text the host adds after the output (not counted against the cap); `live` gets it too. */
  note(text: string): string {
    this.tell(text);
    return text;
  }
  private marker(): string {
    return `\n[output truncated at ${this.cap} bytes]\n`;
  }
  private tell(text: string): void {
    if (text === '' || this.live === undefined) return;
    try {
      this.live(text);
    } catch {
      // a listener's failure never breaks the command
    }
  }
  /** Everything kept (and the marker when cut); `live` got the same text. */
  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8');
    if (!this.truncated) this.tell(this.decoder.end());
    return this.truncated ? `${body}${this.marker()}` : body;
  }
}

function notRunnable(reason: string): CommandResult {
  return { exitCode: NOT_RUNNABLE_EXIT_CODE, stdout: '', stderr: `${reason}\n`, timedOut: false, outputTruncated: false };
}

/** Words of a plain command line ('ls -la src', quotes allowed); null when it needs a shell. */
export function splitPlainWords(line: string): string[] | null {
  if (/[|&;<>$`(){}*?[\]~!#\\\n]/.test(line)) return null;
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

function lastLines(text: string, count = 15): string {
  return text.trim().split('\n').slice(-count).join('\n').slice(-2000);
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() === true;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0 ? `${bytes / 1024 ** 3} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
