import type Dockerode from 'dockerode';
import { KeyedQueue } from '../keyed-queue.js';
import { SANDBOX_USER } from './container-process.js';
import type { SandboxLimits } from '../isolation/sandbox-limits.js';

/** Labels every sandbox container carries: whose it is, and which Kiln host made it. */
export const SANDBOX_LABEL = 'kiln.sandbox';
export const HOST_LABEL = 'kiln.host';

/** What the engine reports of a project's container (GET /api/fly/machine-status). */
export type ContainerState = 'missing' | 'created' | 'running' | 'paused' | 'stopped';

export interface ContainerMounts {
  /** The project folder, writable, at the same path inside. */
  readonly projectDir: string;
  /** Folders visible read-only at the same paths (the shared dependency tree, Kiln's launcher). */
  readonly readOnly: readonly string[];
  /** Folders of this sandbox alone, writable, at the same paths (its dev server's socket). */
  readonly writable: readonly string[];
}

export interface DockerSandboxesOptions {
  readonly docker: Dockerode;
  /** The sandbox image's tag, built or pulled before the first container (SandboxImage). */
  readonly image: () => Promise<string>;
  /** The OCI runtime: 'runsc' (gVisor) in production; tests on a machine without it say 'runc'. */
  readonly runtime: string;
  /** Which Kiln host's containers these are (a hash of its sandboxes folder): adopted after a restart by it alone. */
  readonly hostKey: string;
  readonly limits: SandboxLimits;
  readonly mounts: (sandboxId: string) => Promise<ContainerMounts>;
  /** Made before a container's first start (the project folder made writable by the image's group). */
  readonly beforeCreate?: (sandboxId: string) => Promise<void>;
  /** A container with no process holding it awake and no activity for this long is paused (freezer). */
  readonly pauseIdleMs: number;
  /** One with no process at all and no activity for this long is stopped. */
  readonly stopIdleMs: number;
  /** Size of the container's private /tmp (HOME): tool caches, Vite's cache. */
  readonly tmpBytes?: number;
  /** Per-sandbox figures (state, CPU, memory) for the structured logs, every metricsIntervalMs (default a minute). */
  readonly onMetrics?: (sandboxId: string, metrics: SandboxMetrics) => void;
  readonly metricsIntervalMs?: number;
}

export interface SandboxMetrics {
  readonly state: ContainerState;
  readonly memoryBytes: number | null;
  readonly cpuPercent: number | null;
}

interface Idle {
  /** Processes that keep the container from pausing (commands, installs, builds). */
  holding: number;
  /** Every live process (the dev server too): the container is not stopped while one runs. */
  live: number;
  pauseTimer: NodeJS.Timeout | null;
  stopTimer: NodeJS.Timeout | null;
}

/**
 * One container per project on a Docker engine (docs/sandbox-containers.md): made from Kiln's
 * sandbox image on first use, under gVisor, as an unprivileged user with no capabilities, no new
 * privileges, a read-only root, no network and the sandbox's memory, CPU and process limits; only
 * the project folder (and its dev server's socket folder) writable. Paused when idle, stopped
 * later, started again on the next use; found again by label after Kiln restarts.
 */
export class DockerSandboxes {
  private readonly locks = new KeyedQueue();
  private readonly idle = new Map<string, Idle>();
  private readonly starting = new Set<string>();

  private metricsTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: DockerSandboxesOptions) {
    const report = options.onMetrics;
    if (report !== undefined) {
      this.metricsTimer = setInterval(() => void this.reportMetrics(report), options.metricsIntervalMs ?? 60_000);
      this.metricsTimer.unref();
    }
  }

  /** Each known sandbox's state, memory and CPU, told to onMetrics (the structured logs). */
  private async reportMetrics(report: (sandboxId: string, metrics: SandboxMetrics) => void): Promise<void> {
    for (const sandboxId of [...this.idle.keys()]) {
      const metrics = await this.metrics(sandboxId).catch(() => null);
      if (metrics !== null) report(sandboxId, metrics);
    }
  }

  /** The container's name: one per project and Kiln host, so a second create cannot duplicate it. */
  nameOf(sandboxId: string): string {
    return `kiln-${this.options.hostKey}-${sandboxId}`;
  }

  /** The sandbox's container, running: made, started or resumed as needed. Counts as activity. */
  running(sandboxId: string): Promise<Dockerode.Container> {
    this.touch(sandboxId);
    return this.locks.run(sandboxId, async () => {
      const container = this.options.docker.getContainer(this.nameOf(sandboxId));
      const state = await this.inspectState(container);
      if (state === 'paused') await container.unpause();
      else if (state === 'created' || state === 'stopped') await container.start();
      else if (state === 'missing') await this.create(sandboxId);
      this.touch(sandboxId);
      return container;
    });
  }

  /**
   * A process began in the sandbox: `holdsAwake` ones (commands) keep it from pausing; all keep it
   * from stopping. The returned function says it ended.
   */
  began(sandboxId: string, holdsAwake: boolean): () => void {
    const idle = this.idleOf(sandboxId);
    idle.live += 1;
    if (holdsAwake) idle.holding += 1;
    this.touch(sandboxId);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      idle.live -= 1;
      if (holdsAwake) idle.holding -= 1;
      this.touch(sandboxId);
    };
  }

  /**
   * Whether a dev server is starting in the sandbox: a container is not paused meanwhile (its
   * process holds nothing awake once it serves, so an unwatched preview can be paused).
   */
  devServerStarting(sandboxId: string, starting: boolean): void {
    if (starting) this.starting.add(sandboxId);
    else this.starting.delete(sandboxId);
    this.touch(sandboxId);
  }

  /** Someone used the sandbox (a preview request): the idle clocks start again. */
  touch(sandboxId: string): void {
    const idle = this.idleOf(sandboxId);
    if (idle.pauseTimer !== null) clearTimeout(idle.pauseTimer);
    if (idle.stopTimer !== null) clearTimeout(idle.stopTimer);
    idle.pauseTimer = setTimeout(() => void this.pauseIfIdle(sandboxId), this.options.pauseIdleMs);
    idle.pauseTimer.unref();
    idle.stopTimer = setTimeout(() => void this.stopIfIdle(sandboxId), this.options.stopIdleMs);
    idle.stopTimer.unref();
  }

  async state(sandboxId: string): Promise<ContainerState> {
    return this.inspectState(this.options.docker.getContainer(this.nameOf(sandboxId)));
  }

  /** Removes the container (killed first); its project folder is the host's to remove. */
  remove(sandboxId: string): Promise<void> {
    this.forget(sandboxId);
    return this.locks.run(sandboxId, async () => {
      const container = this.options.docker.getContainer(this.nameOf(sandboxId));
      // gVisor's sandbox cannot be killed while frozen: it is resumed first.
      if ((await this.inspectState(container)) === 'paused') await container.unpause();
      await container
        .remove({ force: true, v: true })
        .catch((e: unknown) => {
          if (statusOf(e) !== 404) throw e;
        });
    });
  }

  /**
   * The containers this host made before it restarted: their idle clocks start now (so none is
   * leaked running), and the next use finds each by its name (so none is made twice).
   */
  async adopt(): Promise<string[]> {
    const found = await this.options.docker.listContainers({ all: true, filters: { label: [`${HOST_LABEL}=${this.options.hostKey}`] } });
    const ids = found.flatMap((info) => (info.Labels[SANDBOX_LABEL] === undefined ? [] : [info.Labels[SANDBOX_LABEL]]));
    for (const id of ids) this.touch(id);
    return ids;
  }

  /** Stops this host's idle clocks and its running containers (API shutdown); they are adopted on the next start. */
  async stopAll(): Promise<void> {
    if (this.metricsTimer !== null) clearInterval(this.metricsTimer);
    this.metricsTimer = null;
    const ids = [...this.idle.keys()];
    for (const id of ids) this.forget(id);
    await Promise.all(ids.map((id) => this.locks.run(id, () => this.stopNow(id)).catch(() => undefined)));
  }

  /** Removes every container of this host (tests' clean-up, a host's folder removed). */
  async removeAll(): Promise<void> {
    const found = await this.options.docker.listContainers({ all: true, filters: { label: [`${HOST_LABEL}=${this.options.hostKey}`] } });
    await Promise.all(found.map((info) => this.remove(info.Labels[SANDBOX_LABEL] ?? '').catch(() => undefined)));
  }

  /** Whether the engine answers (GET /health). */
  async reachable(): Promise<boolean> {
    return this.options.docker.ping().then(
      () => true,
      () => false,
    );
  }

  /** State, memory and CPU of a sandbox's container, for the structured logs. */
  async metrics(sandboxId: string): Promise<SandboxMetrics> {
    const container = this.options.docker.getContainer(this.nameOf(sandboxId));
    const state = await this.inspectState(container);
    if (state !== 'running') return { state, memoryBytes: null, cpuPercent: null };
    const stats = (await container.stats({ stream: false })) as Dockerode.ContainerStats;
    const cpu = stats.cpu_stats.cpu_usage.total_usage - stats.precpu_stats.cpu_usage.total_usage;
    const system = (stats.cpu_stats.system_cpu_usage ?? 0) - (stats.precpu_stats.system_cpu_usage ?? 0);
    const cpus = stats.cpu_stats.online_cpus ?? 1;
    return { state, memoryBytes: stats.memory_stats.usage ?? null, cpuPercent: system > 0 ? Math.round((cpu / system) * cpus * 1000) / 10 : null };
  }

  // ---------------------------------------------------------------------------------------------

  private async create(sandboxId: string): Promise<void> {
    await this.options.beforeCreate?.(sandboxId);
    const mounts = await this.options.mounts(sandboxId);
    const limits = this.options.limits;
    const container = await this.options.docker.createContainer({
      name: this.nameOf(sandboxId),
      Image: await this.options.image(),
      // PID 1 reaps what is orphaned in the sandbox (bash reaps any child), and does nothing else.
      Cmd: ['bash', '-c', 'trap "exit 0" TERM; while :; do sleep 86400 & wait $!; done'],
      User: SANDBOX_USER,
      WorkingDir: mounts.projectDir,
      Env: ['HOME=/tmp', 'LANG=C.UTF-8', 'PATH=/usr/local/bin:/usr/bin:/bin'],
      Labels: { [SANDBOX_LABEL]: sandboxId, [HOST_LABEL]: this.options.hostKey },
      NetworkDisabled: true,
      HostConfig: {
        Runtime: this.options.runtime,
        NetworkMode: 'none',
        ReadonlyRootfs: true,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Memory: limits.memoryBytes,
        MemorySwap: limits.memoryBytes,
        CpuShares: limits.cpuShares,
        // Under gVisor the pids cgroup counts the sandbox kernel's own threads, and reaching it
        // kills the whole sandbox: the process limit is RLIMIT_NPROC, which gVisor enforces inside
        // (a fork past it fails with EAGAIN). Under runc the cgroup is the limit.
        ...(this.options.runtime === 'runsc' ? {} : { PidsLimit: limits.processes }),
        Ulimits: [
          { Name: 'nofile', Soft: limits.openFiles, Hard: limits.openFiles },
          { Name: 'nproc', Soft: limits.processes, Hard: limits.processes },
        ],
        Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${this.options.tmpBytes ?? 512 * 1024 ** 2},mode=1777` },
        Binds: [
          `${mounts.projectDir}:${mounts.projectDir}:rw`,
          ...mounts.readOnly.map((dir) => `${dir}:${dir}:ro`),
          ...mounts.writable.map((dir) => `${dir}:${dir}:rw`),
        ],
        RestartPolicy: { Name: 'no' },
      },
    });
    await container.start();
  }

  private async pauseIfIdle(sandboxId: string): Promise<void> {
    const idle = this.idle.get(sandboxId);
    if (idle === undefined || idle.holding > 0 || this.starting.has(sandboxId)) return;
    await this.locks
      .run(sandboxId, async () => {
        const container = this.options.docker.getContainer(this.nameOf(sandboxId));
        if ((await this.inspectState(container)) === 'running') await container.pause();
      })
      .catch(() => undefined);
  }

  private async stopIfIdle(sandboxId: string): Promise<void> {
    const idle = this.idle.get(sandboxId);
    if (idle === undefined || idle.live > 0) return;
    this.forget(sandboxId);
    await this.locks.run(sandboxId, () => this.stopNow(sandboxId)).catch(() => undefined);
  }

  private async stopNow(sandboxId: string): Promise<void> {
    const container = this.options.docker.getContainer(this.nameOf(sandboxId));
    const state = await this.inspectState(container);
    if (state === 'paused') await container.unpause();
    if (state === 'paused' || state === 'running') await container.stop({ t: 2 });
  }

  private idleOf(sandboxId: string): Idle {
    let idle = this.idle.get(sandboxId);
    if (idle === undefined) {
      idle = { holding: 0, live: 0, pauseTimer: null, stopTimer: null };
      this.idle.set(sandboxId, idle);
    }
    return idle;
  }

  private forget(sandboxId: string): void {
    const idle = this.idle.get(sandboxId);
    if (idle === undefined) return;
    if (idle.pauseTimer !== null) clearTimeout(idle.pauseTimer);
    if (idle.stopTimer !== null) clearTimeout(idle.stopTimer);
    if (idle.live === 0) this.idle.delete(sandboxId);
  }

  private async inspectState(container: Dockerode.Container): Promise<ContainerState> {
    try {
      const info = await container.inspect();
      if (info.State.Paused) return 'paused';
      if (info.State.Running) return 'running';
      return info.State.Status === 'created' ? 'created' : 'stopped';
    } catch (e) {
      if (statusOf(e) === 404) return 'missing';
      throw e;
    }
  }
}

function statusOf(e: unknown): number | undefined {
  return typeof e === 'object' && e !== null && 'statusCode' in e ? (e as { statusCode?: number }).statusCode : undefined;
}
