import { existsSync } from 'node:fs';
import { lstat, mkdir, realpath, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  SandboxMissing,
  type CommandResult,
  DEFAULT_COMMAND_TIMEOUT_SECONDS,
  DEFAULT_WORKING_DIR,
  type DevServerState,
  type ExportFilesOptions,
  type ProjectFileBytes,
  type FileListEntry,
  type FileTreeEntry,
  type DependencyInstallResult,
  type ErrorScan,
  type InstallDependenciesOptions,
  isValidSandboxId,
  MAX_READ_FILE_BYTES,
  type ReadDirectoryOptions,
  type RestoreVersionResult,
  type RunCommandOptions,
  type SandboxCommand,
  type SandboxHostEvent,
  type SandboxHost,
  type SandboxInfo,
  type SandboxMachineState,
  type SandboxVersion,
  type SaveVersionResult,
  TREE_IGNORE_LIST,
} from '@kiln/domain';
import { DependencyCache, type NpmInstallRequest, npmInstaller } from './dependency-cache.js';
import { DevServers } from './dev-servers.js';
import { BubblewrapJail } from './isolation/bubblewrap-jail.js';
import { CgroupLimits } from './isolation/cgroup-limits.js';
import { DiskWatch } from './isolation/disk-watch.js';
import { type IsolationStatus, probeIsolation } from './isolation/isolation-probe.js';
import { ProjectVolumes } from './isolation/project-volumes.js';
import { formatBytes, type SandboxLimits, sandboxLimits } from './isolation/sandbox-limits.js';
import { LocalErrorScans } from './local-error-scans.js';
import type { ReleaseBuildOutput } from './release-build.js';
import type { LocalSandboxHostOptions } from './local-sandbox-host.options.js';
import { ProjectDependencies } from './project-dependencies.js';
import { later, ProjectFiles, type WriteFileOptions } from './files/project-files.js';
import { notRunnable, spawnCapped, splitPlainWords } from './command-runner.js';
import { KeyedQueue } from './keyed-queue.js';
import { LocalSandboxJail } from './local-sandbox-jail.js';
import { LocalSandboxVersions } from './local-sandbox-versions.js';
import { StarterDependencyCache, VITE_LAUNCHER_RELATIVE_PATH } from './starter-dependency-cache.js';
import { WarmDevServer } from './warm-dev-server.js';
import { writeStarterFiles } from './starter-files.js';
import { DevServerLaunch } from './dev-server-launch.js';
import { commandWorkingDir } from './files/command-working-dir.js';
import type { RemoteSandboxProcesses } from './sandbox-processes.js';

export { DEFAULT_OUTPUT_CAP_BYTES, LIMIT_EXIT_CODE, NOT_RUNNABLE_EXIT_CODE, splitPlainWords, TIMED_OUT_EXIT_CODE } from './command-runner.js';
export { INSTALLING_DEPENDENCIES_MESSAGE } from './project-dependencies.js';
export { FIND_ERRORS_TIMEOUT_SECONDS } from './local-error-scans.js';
export type { LocalSandboxHostOptions } from './local-sandbox-host.options.js';

/** Where the starter template lives in the repository (copied into every new sandbox). */
export const STARTER_TEMPLATE_RELATIVE_DIR = 'libs/adapters/src/sandbox/starter';
export const DEFAULT_BWRAP_PATH = '/usr/bin/bwrap';
/** HOME inside the jail: its private /tmp (the sandbox user's home in the jail's passwd), never the project. */
export const SANDBOX_HOME = '/tmp';

/** Largest file read-file returns (the domain's cap; read-directory with contents has its own). */
export const MAX_READ_BYTES = MAX_READ_FILE_BYTES;

export const DEFAULT_IDLE_STOP_MS = 10 * 60_000;
/**
 * The next warm dev server is made this long after one is taken (after the taken one's first
 * requests); it warms up with the least CPU weight anyway.
 */
const WARM_DEV_SERVER_DELAY_MS = 500;
/** How long a measured project size is trusted by writes (commands may change it meanwhile). */
const SIZE_FRESH_MS = 5000;
export const DEFAULT_DEV_SERVER_START_TIMEOUT_MS = 120_000;

/**
 * SandboxHost on the local machine: each project is a folder `${root}/<projectId>` made from the
 * starter template, its versions a git repository kept beside it (LocalSandboxVersions, out of
 * reach of the project's own commands, so hooks and config cannot be planted). File operations
 * walk every path one name at a time, never through a link out (ProjectFiles); commands run in bubblewrap
 * when it is installed, with a timeout that kills the process group, an output cap and a clean
 * environment. The starter's dependencies are installed once into a shared cache and linked into
 * each sandbox (StarterDependencyCache). Each active sandbox has a Vite dev server on a Unix
 * socket (DevServers), started by Kiln's launcher in bubblewrap with no network, stopped when
 * idle; find-errors runs tsc and, when that is clean, a Vite build (LocalErrorScans).
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
  /** How processes are confined: bubblewrap, cgroup, rlimits; npm's way out. */
  private readonly processJail: LocalSandboxJail;
  /** Per sandbox, the commands running now: stopped when the project outgrows its disk limit. */
  private readonly limitStops = new Map<string, Set<AbortController>>();
  /** Sandboxes whose processes are being killed (over the disk limit): new ones wait for it. */
  private readonly stoppingOverDisk = new Map<string, Promise<void>>();
  private readonly cache: StarterDependencyCache | null;
  private readonly dependencies: DependencyCache | null;
  private readonly launcherFile: string;
  private readonly devServers: DevServers;
  private readonly launch: DevServerLaunch;
  /** The next new project's dev server, started ahead (isolated hosts with a starter cache only). */
  private readonly warm: WarmDevServer | null;
  private readonly listeners = new Set<(event: SandboxHostEvent) => void>();
  private realRoot: Promise<string> | undefined;
  private readonly locks = new KeyedQueue();
  private readonly versions: LocalSandboxVersions;
  private readonly errorScans: LocalErrorScans;
  /** node_modules kept on what each project's package.json asks for. */
  private readonly projectDependencies: ProjectDependencies;

  /** Processes run elsewhere (a subclass's containers); null: local children, in bubblewrap when installed. */
  private readonly remote: RemoteSandboxProcesses | null;

  constructor(options: LocalSandboxHostOptions, remote: RemoteSandboxProcesses | null = null) {
    this.remote = remote;
    this.root = path.resolve(options.root);
    this.templateDir = options.templateDir ?? path.resolve(process.cwd(), STARTER_TEMPLATE_RELATIVE_DIR);
    this.bwrapPath =
      remote !== null ? null : options.bwrapPath === undefined ? (existsSync(DEFAULT_BWRAP_PATH) ? DEFAULT_BWRAP_PATH : null) : options.bwrapPath;
    this.limits = sandboxLimits({ ...options.limits, ...(options.outputCapBytes === undefined ? {} : { outputBytes: options.outputCapBytes }) });
    this.outputCapBytes = this.limits.outputBytes;
    this.commandPath = options.commandPath ?? process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin';
    this.runtimeDir = path.resolve(options.runtimeDir ?? path.join(path.dirname(this.root), 'sandbox-run'));
    this.jail = this.bwrapPath === null ? null : new BubblewrapJail({ bwrapPath: this.bwrapPath, runtimeDir: path.join(this.runtimeDir, 'etc') });
    // Limits by cgroup only for isolated sandboxes (they are what the cgroup would hold).
    this.cgroups = this.jail !== null && options.cgroups !== false ? CgroupLimits.detect(this.limits) : Promise.resolve(CgroupLimits.none(this.limits));
    this.cgroups.catch(() => undefined);
    this.processJail = new LocalSandboxJail({
      jail: this.jail,
      ...(remote === null ? {} : { installJail: remote.installJail }),
      limits: this.limits,
      cgroups: this.cgroups,
      runtimeDir: this.runtimeDir,
      dependencyCacheDir: async () => this.cache?.realCacheDir(),
    });
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
            installer: (request) => this.runNpmInstall(request),
            ...(options.dependencyInstallTimeoutMs === undefined ? {} : { installTimeoutMs: options.dependencyInstallTimeoutMs }),
          });
    this.cache =
      this.dependencies === null
        ? null
        : new StarterDependencyCache({ dependencies: this.dependencies, templateDir: this.templateDir, launcherFile: this.launcherFile });
    this.versions = new LocalSandboxVersions({
      sandboxRoot: () => this.sandboxRoot(),
      projectDir: (sandboxId) => this.projectDir(sandboxId),
      existingProjectDir: (sandboxId) => this.existingProjectDir(sandboxId),
      serialised: (sandboxId, work) => this.serialised(sandboxId, work),
      filesChanged: (sandboxId) => this.devServers.filesChanged(sandboxId),
      restored: (sandboxId) => this.devServers.filesChanged(sandboxId, 'all'),
      commandPath: this.commandPath,
    });
    this.launch = new DevServerLaunch({
      launcher: () => this.launcher(),
      starter: this.cache,
      templateDir: this.templateDir,
      existingProjectDir: (sandboxId) => this.existingProjectDir(sandboxId),
      syncDependencies: (sandboxId, projectDir) => this.projectDependencies.sync(sandboxId, projectDir, { restartDevServer: false }),
      jailed: (groupId, projectDir, cwd, argv) => this.jailed(groupId, projectDir, cwd, argv),
      watchDisk: this.volumes === null ? (sandboxId, projectDir) => this.diskWatch.watch(sandboxId, projectDir) : null,
      env: (projectDir) => this.commandEnv(projectDir),
      ...(remote === null ? {} : { remote: { processes: remote.processes, listenPath: remote.listenPath } }),
    });
    this.devServers = new DevServers({
      idleStopMs: options.idleStopMs ?? DEFAULT_IDLE_STOP_MS,
      startTimeoutMs: options.devServerStartTimeoutMs ?? DEFAULT_DEV_SERVER_START_TIMEOUT_MS,
      socketDir: path.join(this.runtimeDir, 'dev'),
      launch: (sandboxId, listenFd) => this.launch.dev(sandboxId, listenFd),
      adopt: (sandboxId) => this.warm?.adopt(sandboxId) ?? null,
      ...(remote === null ? {} : { ownSocket: { publish: remote.publish }, announceChanges: remote.wake }),
      onChange: (sandboxId, state) => this.emit({ type: 'dev-server', sandboxId, state }),
    });
    this.warm =
      this.jail === null || this.cache === null || options.warmDevServer !== true
        ? null
        : new WarmDevServer({
            sandboxRoot: () => this.sandboxRoot(),
            socketDir: path.join(this.runtimeDir, 'dev'),
            volumes: this.volumes,
            cgroups: this.cgroups,
            spawn: (groupId, dir, listenFd) => this.launch.warm(groupId, dir, listenFd),
            seed: async (dir) => writeStarterFiles(this.templateDir, dir, (await this.cache?.prepare())?.nodeModules),
            delayMs: WARM_DEV_SERVER_DELAY_MS,
          });
    this.projectDependencies = new ProjectDependencies({
      dependencies: this.dependencies,
      starter: this.cache,
      readFile: async (sandboxId, file) => (await this.files(sandboxId)).readFile(file),
      serialised: (sandboxId, work) => this.serialised(sandboxId, work),
      devServers: this.devServers,
    });
    this.errorScans = new LocalErrorScans({
      existingProjectDir: (sandboxId) => this.existingProjectDir(sandboxId),
      syncDependencies: (sandboxId, projectDir) => this.projectDependencies.sync(sandboxId, projectDir, { restartDevServer: true }),
      // Through the host's own runCommand (its limits; a subclass in a test counts the calls).
      runCommand: (sandboxId, command, options) => this.runCommand(sandboxId, command, options),
      launcher: () => this.launcher(),
      workingTree: (sandboxId) => this.versions.workingTree(sandboxId),
      launcherFile: this.launcherFile,
      warmCheck: (sandboxId, mode, timeoutMs, changedPaths) => this.devServers.askCheck(sandboxId, mode, timeoutMs, changedPaths),
      changedPaths: (sandboxId, fromTree, toTree) => this.versions.changedPaths(sandboxId, fromTree, toTree),
    });
  }

  /**
   * Installs the starter's dependencies into the shared cache unless they are there already (the
   * API calls it at start-up so the first project does not wait for npm). ensure calls it too.
   */
  async prepareTemplate(): Promise<void> {
    await this.cache?.prepare();
    this.warm?.schedule();
  }

  /**
   * The disk quota this machine can enforce for sandboxes under `root`: 'volume' (one ext4 volume
   * per project, the kernel refuses writes past the limit) where root and loop devices allow it,
   * else 'watch'. main.ts uses it; so does the escape suite, to test what production runs.
   */
  static async diskQuotaFor(root: string): Promise<'volume' | 'watch'> {
    return (await ProjectVolumes.available(path.dirname(path.resolve(root)))) ? 'volume' : 'watch';
  }

  /** Whether shell lines run (inside bubblewrap or a container); without either only argument vectors run. */
  get isolated(): boolean {
    return this.bwrapPath !== null || this.remote !== null;
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
      let devServerStarted = false;
      if (!existsSync(dir)) {
        // Before anything is written, so a failed install leaves no half sandbox behind.
        const starter = await this.cache?.prepare();
        try {
          // The warm dev server's folder (and volume) becomes the project's, else a new one is made.
          const warm = starter === undefined ? null : ((await this.warm?.claim(projectId, dir, this.devServers.socketPathFor(projectId))) ?? null);
          if (warm === null) await this.volumes?.ensureMounted(dir);
          // Without a volume its writes count against the disk limit by the watch, as a launched one's do.
          else if (this.volumes === null) warm.once('close', await this.diskWatch.watch(projectId, dir));
          // A warm folder holds the starter's files already (seeded when it was made).
          if (warm === null) await writeStarterFiles(this.templateDir, dir, starter?.nodeModules);
          // The warm server goes on at once (its start overlaps the first version's commit and the
          // builder's next round trips); otherwise the dev server starts on its first request.
          if (warm !== null) {
            void this.devServers.request(projectId).catch(() => undefined);
            devServerStarted = true;
          }
          await this.versions.init(projectId);
        } catch (e) {
          // Half a sandbox would later pass for a whole one: remove it so the next ensure retries.
          await this.devServers.remove(projectId).catch(() => undefined);
          this.warm?.release(projectId);
          await this.volumes?.remove(dir).catch(() => undefined);
          await rm(dir, { recursive: true, force: true });
          await this.versions.remove(projectId);
          throw e;
        }
        machineCreated = true;
        this.warm?.schedule();
      } else {
        await this.volumes?.ensureMounted(dir);
        if (this.cache !== null) await this.projectDependencies.repairLink(dir);
      }
      return {
        status: 'created',
        message: devServerStarted ? 'Sandbox files ready; the dev server is starting' : 'Sandbox files ready; the dev server starts on its first request',
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
      await this.projectDependencies.sync(projectId, await this.projectDir(projectId), { restartDevServer: true }).catch(() => undefined);
    }
    return info;
  }

  // File routes: ProjectFiles walks each path one name at a time from the project folder, never
  // through a link (files/project-files.ts), so a command swapping folders and links cannot send
  // the API (unsandboxed) outside the project.

  readFile = async (sandboxId: string, requested: string): Promise<string> => (await this.files(sandboxId)).readFile(requested);

  /**
   * Refused (SANDBOX.DISK_LIMIT, nothing written) when it would take the project past its disk
   * limit (`options.maxProjectBytes`, default limits.diskBytes). The project is measured exactly
   * only when its last known size (at most SIZE_FRESH_MS old) leaves less than a tenth of the limit
   * free after this write; the volume (or the watch) still enforces the rest.
   */
  async writeFile(sandboxId: string, requested: string, content: string | Uint8Array, options: WriteFileOptions = {}): Promise<void> {
    const files = await this.files(sandboxId);
    this.devServers.filesChanged(sandboxId, { change: [requested] });
    const limit = options.maxProjectBytes ?? this.limits.diskBytes;
    const bytes = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
    const known = await this.knownSize(sandboxId);
    const exact = known + bytes > limit * 0.9;
    await files.writeFile(requested, content, exact ? { ...options, maxProjectBytes: limit } : options);
    const entry = this.sizes.get(sandboxId);
    if (entry !== undefined) entry.bytes += bytes;
  }

  async deleteFile(sandboxId: string, requested: string): Promise<void> {
    const files = await this.files(sandboxId);
    this.devServers.filesChanged(sandboxId, { unlink: [requested] });
    await files.deleteFile(requested);
  }

  createDirectory = async (sandboxId: string, requested: string): Promise<void> => (await this.files(sandboxId)).createDirectory(requested);
  writeFileBytes = (sandboxId: string, requested: string, bytes: Uint8Array): Promise<void> => this.writeFile(sandboxId, requested, bytes);

  createFile = async (sandboxId: string, requested: string): Promise<void> => (await this.files(sandboxId)).createFile(requested);
  movePath = async (sandboxId: string, from: string, to: string): Promise<void> => {
    await (await this.files(sandboxId)).movePath(from, to);
    this.devServers.filesChanged(sandboxId, 'all');
  };
  exportFiles = (sandboxId: string, options: ExportFilesOptions): AsyncIterable<ProjectFileBytes> => later(async () => (await this.files(sandboxId)).exportFiles(options));

  readDirectory = async (sandboxId: string, requested: string, options: ReadDirectoryOptions = {}): Promise<readonly FileListEntry[]> =>
    (await this.files(sandboxId)).readDirectory(requested, options);
  getTree = async (sandboxId: string, requested: string, ignore: readonly string[] = TREE_IGNORE_LIST): Promise<readonly FileTreeEntry[]> =>
    (await this.files(sandboxId)).getTree(requested, ignore);

  /** The project's size as last measured, measured again when older than SIZE_FRESH_MS. */
  private async knownSize(sandboxId: string): Promise<number> {
    const known = this.sizes.get(sandboxId);
    const now = Date.now();
    if (known !== undefined && now - known.at < SIZE_FRESH_MS) return known.bytes;
    const bytes = await this.projectSize(sandboxId);
    this.sizes.set(sandboxId, { bytes, at: now });
    return bytes;
  }

  /** The project folder's size in bytes, race-free (no link followed, node_modules' tree not counted). */
  async projectSize(sandboxId: string): Promise<number> {
    return (await this.files(sandboxId)).size();
  }

  async runCommand(sandboxId: string, command: SandboxCommand, options: RunCommandOptions = {}): Promise<CommandResult> {
    const projectDir = await this.existingProjectDir(sandboxId);
    const cwd = await commandWorkingDir(await this.existingProjectDir(sandboxId), options.workingDir ?? DEFAULT_WORKING_DIR);
    if (!(await stat(cwd)).isDirectory()) return notRunnable(`Not a folder: ${options.workingDir ?? ''}`);
    const timeoutMs = Math.max(1, options.timeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS) * 1000;
    this.devServers.filesChanged(sandboxId); // a command may change files

    let argv: readonly string[];
    if (typeof command === 'string') {
      if (this.isolated) argv = ['bash', '-c', command];
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
    const remote = this.remote;
    try {
      return await spawnCapped(file as string, args, {
        ...(remote === null ? {} : { start: () => remote.processes.spawn(sandboxId, [file as string, ...args], { cwd, env, stdin: 'ignore' }) }),
        // In bubblewrap the working folder is entered inside the sandbox's own view (--chdir).
        cwd: this.jail === null ? cwd : projectDir,
        env,
        timeoutMs,
        outputCapBytes: this.outputCapBytes,
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

  /** On this machine there is no machine to pause: running while its dev server is. */
  async machineState(sandboxId: string): Promise<SandboxMachineState> {
    const exists = existsSync(await this.projectDir(sandboxId));
    return { engine: 'local', state: !exists ? 'missing' : this.devServers.isActive(sandboxId) ? 'running' : 'stopped', memoryBytes: null, cpuPercent: null };
  }

  /** Stops the sandbox's dev server for good (cleanup), as Kiln's own act, not a failure. */
  protected stopDevServer = (sandboxId: string): Promise<void> => this.devServers.remove(sandboxId);

  async cleanup(sandboxId: string): Promise<void> {
    await this.projectDir(sandboxId); // a malformed id rejects before anything happens
    await this.devServers.remove(sandboxId);
    await (await this.cgroups).remove(sandboxId);
    await this.serialised(sandboxId, async () => {
      const dir = await this.projectDir(sandboxId);
      this.sizes.delete(sandboxId);
      await this.volumes?.remove(dir);
      await rm(dir, { recursive: true, force: true });
      await this.versions.remove(sandboxId);
    });
  }

  saveVersion = (sandboxId: string, message: string): Promise<SaveVersionResult> => this.versions.saveVersion(sandboxId, message);
  versionHistory = (sandboxId: string): Promise<readonly SandboxVersion[]> => this.versions.versionHistory(sandboxId);
  restoreVersion = (sandboxId: string, hash: string): Promise<RestoreVersionResult> => this.versions.restoreVersion(sandboxId, hash);

  installDependencies = async (sandboxId: string, options: InstallDependenciesOptions = {}): Promise<DependencyInstallResult> =>
    this.projectDependencies.install(sandboxId, await this.existingProjectDir(sandboxId), options.onProgress);

  restoreFile = (sandboxId: string, hash: string, path: string): Promise<RestoreVersionResult> => this.versions.restoreFile(sandboxId, hash, path);
  findErrors = (sandboxId: string): Promise<ErrorScan> => this.errorScans.findErrors(sandboxId);

  /** `vite build` for a release, sandboxed (release-build.ts); LocalHostingProvider copies its output. */
  buildForRelease = (sandboxId: string): Promise<ReleaseBuildOutput> => this.errorScans.buildForRelease(sandboxId);

  async restartDev(sandboxId: string): Promise<void> {
    const projectDir = await this.existingProjectDir(sandboxId);
    // Installed before the restart, not inside it, so preview requests are not held meanwhile. A
    // failure is the launch's to report (it syncs again and gets the same error at once).
    await this.projectDependencies.sync(sandboxId, projectDir, { restartDevServer: false });
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
    return (await this.projectDependencies.beforeDevServer(sandboxId, projectDir)) ?? this.devServers.request(sandboxId);
  }

  subscribe = (listener: (event: SandboxHostEvent) => void): (() => void) => (this.listeners.add(listener), () => void this.listeners.delete(listener));

  async stopAll(): Promise<void> {
    await this.warm?.close();
    await this.devServers.stopAll();
    await (await this.cgroups).close();
    await this.volumes?.unmountAll();
    await this.processJail.stopEgress();
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

  /**
   * What every process in a sandbox gets: none of the API's variables. HOME is outside the project
   * in the jail (its private /tmp, the sandbox user's home), so tool caches such as npm's `.npm`
   * never land among the project's files; without bubblewrap there is no private folder to give,
   * and the project stays HOME (versions exclude the caches either way: VERSION_EXCLUDES).
   */
  private commandEnv(projectDir: string): NodeJS.ProcessEnv {
    if (this.remote !== null) return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: SANDBOX_HOME, LANG: 'C.UTF-8' };
    return { PATH: this.commandPath, HOME: this.jail === null ? projectDir : SANDBOX_HOME, LANG: 'C.UTF-8' };
  }

  /** The launcher as seen from inside the sandbox: its copy in the dependency cache. */
  private async launcher(): Promise<string> {
    return (await this.cache?.prepare())?.launcher ?? this.launcherFile;
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

  protected async projectDir(sandboxId: string): Promise<string> {
    if (!isValidSandboxId(sandboxId)) throw new Error(`Invalid sandbox id: ${JSON.stringify(sandboxId)}`);
    return path.join(await this.sandboxRoot(), sandboxId);
  }

  protected async existingProjectDir(sandboxId: string): Promise<string> {
    const dir = await this.projectDir(sandboxId);
    const info = await lstat(dir).catch(() => null);
    if (info === null || !info.isDirectory()) throw new SandboxMissing(sandboxId);
    // After a restart the folder is an empty mount point until its volume is mounted again.
    await this.volumes?.ensureMounted(dir);
    return dir;
  }

  /**
   * Runs one npm install: inside bubblewrap when it is installed, in a network namespace of its own
   * whose only way out is the egress proxy (the npm registry, nothing else: docs/decisions.md
   * "Dependency installs reach only the registry"). Tests count these.
   */
  protected runNpmInstall(request: NpmInstallRequest): Promise<void> {
    const isolate = this.processJail.npmIsolation(() => (this.dependencies as DependencyCache).realCacheDir());
    return npmInstaller({ commandPath: this.commandPath, ...(isolate === undefined ? {} : { isolate }) })(request);
  }

  /**
   * A sandboxed process's whole command line (docs/security.md "Project sandboxes"): in the
   * sandbox's cgroup, with its rlimits, in bubblewrap with the project writable and the dependency
   * tree read-only. Without bubblewrap, the argument vector as it is (not isolated: start-up warns).
   */
  private async jailed(sandboxId: string, projectDir: string, cwd: string, argv: readonly string[]): Promise<string[]> {
    // A sandbox being stopped for its disk limit takes no new process until all of it is gone.
    await this.stoppingOverDisk.get(sandboxId);
    return this.processJail.command(sandboxId, projectDir, cwd, argv);
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

  /** One operation at a time per sandbox for creation, versions (git's index lock) and the node_modules swap. */
  private serialised<T>(sandboxId: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(sandboxId, work);
  }
}
