import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { chmod, link, lstat, mkdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import Dockerode from 'dockerode';
import type { DevServerState, SandboxMachineState } from '@kiln/domain';
import { ContainerProcess } from './container/container-process.js';
import { type ContainerState, DockerSandboxes, type SandboxMetrics } from './container/docker-sandboxes.js';
import { SandboxImage } from './container/sandbox-image.js';
import type { IsolationStatus } from './isolation/isolation-probe.js';
import { sandboxLimits } from './isolation/sandbox-limits.js';
import { DEFAULT_BWRAP_PATH, LocalSandboxHost } from './local-sandbox-host.adapter.js';
import { BubblewrapJail } from './isolation/bubblewrap-jail.js';
import type { LocalSandboxHostOptions } from './local-sandbox-host.options.js';
import type { SandboxProcesses, SandboxSpawnOptions } from './sandbox-processes.js';

export const DEFAULT_PAUSE_IDLE_MS = 60_000;
export const DEFAULT_CONTAINER_STOP_IDLE_MS = 10 * 60_000;

export interface ContainerSandboxHostOptions extends Omit<LocalSandboxHostOptions, 'bwrapPath' | 'cgroups' | 'warmDevServer' | 'commandPath'> {
  /** The engine: `unix:///run/docker.sock` or `tcp://host:2375` (DOCKER_HOST). */
  readonly dockerHost: string;
  /** An image built from tools/sandbox-image elsewhere (SANDBOX_IMAGE); default: built here on first use. */
  readonly image?: string;
  /** The OCI runtime (default 'runsc', gVisor). */
  readonly runtime?: string;
  /** A container idle this long is paused (SANDBOX_PAUSE_IDLE_SECONDS; default 60 s). */
  readonly pauseIdleMs?: number;
  /** One with nothing running, idle this long, is stopped (default: the dev server's idle stop, 10 min). */
  readonly stopIdleMs?: number;
  /** Where tools/sandbox-image is (tests); default `<cwd>/tools/sandbox-image`. */
  readonly recipeDir?: string;
  /** Each known sandbox's state, memory and CPU, every metricsIntervalMs (main.ts logs them). */
  readonly onMetrics?: (sandboxId: string, metrics: SandboxMetrics) => void;
  readonly metricsIntervalMs?: number;
}

/**
 * The sandbox ports on a Docker engine (docs/sandbox-containers.md): each project's processes —
 * commands, installs' scripts, find-errors, the release build and the Vite dev server — run as
 * execs in a container of its own under gVisor (DockerSandboxes), never on Kiln's machine. Files
 * and versions are the local host's (race-free file routes, git kept outside), on the project
 * folder the container mounts; the dev server makes its socket in a folder only its container
 * mounts, and Kiln links it into its own socket folder after checking it is a socket.
 */
export class ContainerSandboxHost extends LocalSandboxHost {
  readonly containers: DockerSandboxes;
  private readonly socketRoot: string;

  constructor(options: ContainerSandboxHostOptions) {
    const root = path.resolve(options.root);
    const runtimeDir = path.resolve(options.runtimeDir ?? path.join(path.dirname(root), 'sandbox-run'));
    const socketRoot = path.join(runtimeDir, 'container-sockets');
    const bwrapPath = existsSync(DEFAULT_BWRAP_PATH) ? DEFAULT_BWRAP_PATH : null;
    const cacheDir = options.cacheDir === undefined ? path.join(path.dirname(root), 'sandbox-cache') : options.cacheDir;
    const docker = new Dockerode(dockerConnection(options.dockerHost));
    const image = new SandboxImage({ docker, dockerHost: options.dockerHost, ...(options.image === undefined ? {} : { image: options.image }), ...(options.recipeDir === undefined ? {} : { recipeDir: options.recipeDir }) });
    const stopIdleMs = options.stopIdleMs ?? options.idleStopMs ?? DEFAULT_CONTAINER_STOP_IDLE_MS;
    const containers = new DockerSandboxes({
      docker,
      image: () => image.tag(),
      runtime: options.runtime ?? 'runsc',
      hostKey: createHash('sha256').update(root).digest('hex').slice(0, 10),
      limits: sandboxLimits({ ...options.limits, ...(options.outputCapBytes === undefined ? {} : { outputBytes: options.outputCapBytes }) }),
      pauseIdleMs: options.pauseIdleMs ?? DEFAULT_PAUSE_IDLE_MS,
      ...(options.onMetrics === undefined ? {} : { onMetrics: options.onMetrics }),
      ...(options.metricsIntervalMs === undefined ? {} : { metricsIntervalMs: options.metricsIntervalMs }),
      stopIdleMs,
      mounts: async (sandboxId) => ({
        projectDir: path.join(await realpath(root), sandboxId),
        readOnly: cacheDir === null ? [] : [await realpath(cacheDir)],
        writable: [await socketDirOf(socketRoot, sandboxId)],
      }),
      // The image's user is in group 0: the project's files are made group-writable for it (the
      // files Kiln writes later are, by the umask below).
      beforeCreate: async (sandboxId) => groupWritable(path.join(await realpath(root), sandboxId)),
    });
    const processes: SandboxProcesses = {
      spawn: (sandboxId: string, argv: readonly string[], spawnOptions: SandboxSpawnOptions) =>
        new ContainerProcess(containers.running(sandboxId), argv, spawnOptions, containers.began(sandboxId, spawnOptions.stdin === 'ignore')).asChild(),
    };
    super(
      { ...options, cacheDir, warmDevServer: false },
      {
        processes,
        listenPath: (sandboxId) => path.join(socketRoot, sandboxId, 'dev.sock'),
        publish: (sandboxId, socketPath) => publishSocket(path.join(socketRoot, sandboxId, 'dev.sock'), socketPath),
        // A paused container resumes to take the change (the preview's HMR socket then tells the page).
        wake: (sandboxId) => void containers.running(sandboxId).catch(() => undefined),
        // npm installs into the shared dependency cache stay in bubblewrap on this machine, whose
        // only way out is the registry (docs/sandbox-containers.md "Not done yet").
        installJail: bwrapPath === null ? null : new BubblewrapJail({ bwrapPath, runtimeDir: path.join(runtimeDir, 'etc') }),
      },
    );
    this.containers = containers;
    this.socketRoot = socketRoot;
    this.subscribe((event) => {
      if (event.type === 'dev-server') containers.devServerStarting(event.sandboxId, event.state.status === 'starting');
    });
    // Files and folders Kiln makes in a project (file routes, git's restores) stay writable by the
    // sandbox's group; nothing else of Kiln's is group-writable by anyone but root's group.
    process.umask(0o002);
  }

  override async isolation(): Promise<IsolationStatus> {
    // Installs of a dependency set are not in containers yet: without bubblewrap they would have
    // the machine's network (no lifecycle scripts run, but npm fetches what package.json names).
    if (!existsSync(DEFAULT_BWRAP_PATH)) return { isolated: false, reason: `npm installs need bubblewrap at ${DEFAULT_BWRAP_PATH} on this machine (apt-get install bubblewrap)` };
    return (await this.containers.reachable())
      ? { isolated: true, limits: 'container limits: memory, CPU share, processes (Docker); disk by volume or watch' }
      : { isolated: false, reason: 'the Docker engine does not answer' };
  }

  /** A preview request: the container wakes (resumed from pause) before the dev server is asked. */
  override async devServer(sandboxId: string): Promise<DevServerState> {
    const state = await super.devServer(sandboxId);
    if (state.status === 'running') await this.containers.running(sandboxId);
    else this.containers.touch(sandboxId);
    return state;
  }

  /** The project's container, as the engine reports it (GET /api/fly/machine-status). */
  override async machineState(sandboxId: string): Promise<SandboxMachineState> {
    const dir = await this.projectDir(sandboxId); // a malformed id rejects
    const metrics = await this.containers.metrics(sandboxId);
    // A project whose container is not made yet (or was removed) is stopped: its next use makes one.
    const exists = await lstat(dir).then(() => true, () => false);
    const state = !exists ? 'missing' : metrics.state === 'missing' ? 'stopped' : machineStateOf(metrics.state);
    return { engine: 'docker', state, memoryBytes: metrics.memoryBytes, cpuPercent: metrics.cpuPercent };
  }

  override async cleanup(sandboxId: string): Promise<void> {
    await this.projectDir(sandboxId); // a malformed id rejects before anything happens
    await this.stopDevServer(sandboxId);
    await this.containers.remove(sandboxId);
    await super.cleanup(sandboxId);
    await rm(path.join(this.socketRoot, sandboxId), { recursive: true, force: true });
  }

  override async stopAll(): Promise<void> {
    await super.stopAll();
    await this.containers.stopAll();
  }
}

function machineStateOf(state: Exclude<ContainerState, 'missing'>): SandboxMachineState['state'] {
  return state === 'created' ? 'stopped' : state;
}

function dockerConnection(dockerHost: string): Dockerode.DockerOptions {
  const url = new URL(dockerHost);
  if (url.protocol === 'unix:') return { socketPath: url.pathname };
  if (url.protocol === 'tcp:' || url.protocol === 'http:') return { host: url.hostname, port: Number(url.port || 2375), protocol: 'http' };
  throw new Error(`DOCKER_HOST must be unix:///path or tcp://host:port, got ${dockerHost}`);
}

/** The folder only this sandbox's container mounts for its dev server's socket (group 0 may write it). */
async function socketDirOf(socketRoot: string, sandboxId: string): Promise<string> {
  const dir = path.join(socketRoot, sandboxId);
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o770);
  return realpath(dir);
}

/**
 * Makes `listenPath` (made inside the sandbox, which may put anything there) reachable at
 * `socketPath` in Kiln's own folder: a hard link (link(2) never follows a symbolic link), then
 * checked where the sandbox cannot change it. Anything but a socket is refused, so the proxy never
 * connects through a link the project planted (to the engine's own socket, say).
 */
async function publishSocket(listenPath: string, socketPath: string): Promise<void> {
  await mkdir(path.dirname(socketPath), { recursive: true, mode: 0o700 });
  await rm(socketPath, { force: true });
  await link(listenPath, socketPath);
  const info = await lstat(socketPath);
  if (!info.isSocket()) {
    await rm(socketPath, { force: true });
    throw new Error('the dev server made something other than a socket');
  }
}

function groupWritable(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // -R without -L: links are neither followed nor changed (nothing runs in the project yet).
    execFile('chmod', ['-R', 'g+w', '--', dir], { timeout: 60_000 }, (error) => (error ? reject(error) : resolve()));
  });
}
