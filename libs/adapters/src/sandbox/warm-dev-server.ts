import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { killGroup, listenOn, trackGroup, untrackGroup } from './dev-servers.js';
import type { CgroupLimits } from './isolation/cgroup-limits.js';
import type { ProjectVolumes } from './isolation/project-volumes.js';

/** Warm servers that die before being used, in a row, after which no more are made. */
const MAX_FAILURES = 3;

export interface WarmDevServerOptions {
  /** The folder holding every project (real path): the warm server's folder is made there. */
  readonly sandboxRoot: () => Promise<string>;
  /** Where dev servers' sockets are (DevServersOptions.socketDir). */
  readonly socketDir: string;
  /** Each project's volume, when the host uses them (the warm folder gets one too). */
  readonly volumes: ProjectVolumes | null;
  readonly cgroups: Promise<CgroupLimits>;
  /**
   * Starts the launcher's `warm` mode in the sandbox for folder `dir`, in cgroup `groupId`, serving
   * on `listenFd` once told to go; rejects when there is nothing to warm (no starter tree).
   */
  readonly spawn: (groupId: string, dir: string, listenFd: number) => Promise<ChildProcess>;
  /**
   * Writes a new project's first files (the starter's, as `ensure` would) into the warm folder
   * before the server starts, so its type-checker makes the project's first program ahead: a new
   * project's first check is then one from the starter's, not a whole program made afresh.
   */
  readonly seed: (dir: string) => Promise<void>;
  /** How long after a warm server is taken the next one is made (not while the taken one starts). */
  readonly delayMs: number;
}

interface Warm {
  readonly id: string;
  readonly dir: string;
  readonly socketPath: string;
  readonly child: ChildProcess;
}

/**
 * One dev server started ahead of the next new project, the way most of create → preview goes:
 * in its own sandbox (folder, volume, cgroup, socket) with Vite and the starter's plugins already
 * imported, waiting. A new project takes it (`claim`): its folder, volume, socket and cgroup become
 * the project's, and DevServers adopts the process, which then reads the project's files. The
 * sandbox it runs in is built exactly as a dev server's (LocalSandboxHost's launch), so taking it
 * gives the project nothing another project could have seen.
 */
export class WarmDevServer {
  private ready: Warm | null = null;
  private making: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private closed = false;
  /** Taken by a project, not yet adopted by DevServers. */
  private readonly claimed = new Map<string, ChildProcess>();

  constructor(private readonly options: WarmDevServerOptions) {}

  /** Makes one after the delay unless one is ready or being made. */
  schedule(): void {
    if (this.closed || this.ready !== null || this.making !== null || this.timer !== null || this.failures >= MAX_FAILURES) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.closed || this.ready !== null || this.making !== null) return;
      this.making = this.make().finally(() => (this.making = null));
    }, this.options.delayMs);
    this.timer.unref();
  }

  /**
   * Gives the warm server to a new project whose folder `dir` does not exist yet: its process when
   * the folder (holding the starter's files, seeded; with its volume), the socket at `socketPath` and the process are now the
   * project's, else null.
   */
  async claim(sandboxId: string, dir: string, socketPath: string): Promise<ChildProcess | null> {
    const warm = this.ready;
    if (warm === null || !alive(warm.child)) return null;
    this.ready = null;
    try {
      if (this.options.volumes !== null) await this.options.volumes.moveTo(warm.dir, dir);
      else await rename(warm.dir, dir);
      await rename(warm.socketPath, socketPath);
      await (await this.options.cgroups).move(warm.id, sandboxId);
    } catch {
      await this.discard(warm);
      return null;
    }
    this.claimed.set(sandboxId, warm.child);
    return warm.child;
  }

  /** The process a project claimed (DevServersOptions.adopt); null when there is none or it died. */
  adopt(sandboxId: string): ChildProcess | null {
    const child = this.claimed.get(sandboxId);
    this.claimed.delete(sandboxId);
    if (child === undefined || !alive(child)) return null;
    setReferenced(child, true); // a dev server like any other now
    return child;
  }

  /** A claimed process nobody adopted (the project's creation failed) is stopped. */
  release(sandboxId: string): void {
    const child = this.claimed.get(sandboxId);
    this.claimed.delete(sandboxId);
    if (child !== undefined) stop(child);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.making;
    const warm = this.ready;
    this.ready = null;
    if (warm !== null) await this.discard(warm);
    for (const child of this.claimed.values()) stop(child);
    this.claimed.clear();
  }

  private async make(): Promise<void> {
    const id = `.warm-${process.pid}-${randomBytes(4).toString('hex')}`;
    const dir = path.join(await this.options.sandboxRoot(), id);
    const socketPath = path.join(this.options.socketDir, `${id}.sock`);
    let child: ChildProcess | null = null;
    // Warming up takes only CPU nobody else wants; the project's group gives it the normal weight.
    (await this.options.cgroups).inBackground(id);
    try {
      if (this.options.volumes !== null) await this.options.volumes.ensureMounted(dir);
      else await mkdir(dir);
      await this.options.seed(dir);
      const listener = await listenOn(socketPath);
      try {
        child = await this.options.spawn(id, dir, (listener as unknown as { _handle: { fd: number } })._handle.fd);
      } finally {
        listener.close();
      }
    } catch {
      this.failures += 1;
      await this.cleanUp(id, dir, socketPath);
      return;
    }
    const warm: Warm = { id, dir, socketPath, child };
    trackGroup(child);
    // Waiting must not keep Kiln's process alive (it exits with it: end of its stdin).
    setReferenced(child, false);
    child.once('close', () => {
      if (this.ready !== warm) return; // taken (DevServers watches it now) or discarded
      this.ready = null;
      this.failures += 1;
      void this.cleanUp(id, dir, socketPath).then(() => this.schedule());
    });
    if (this.closed) {
      await this.discard(warm);
      return;
    }
    this.failures = 0;
    this.ready = warm;
  }

  private async discard(warm: Warm): Promise<void> {
    stop(warm.child);
    await this.cleanUp(warm.id, warm.dir, warm.socketPath);
  }

  private async cleanUp(id: string, dir: string, socketPath: string): Promise<void> {
    await (await this.options.cgroups).remove(id).catch(() => undefined);
    if (this.options.volumes !== null) await this.options.volumes.remove(dir).catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    await rm(socketPath, { force: true }).catch(() => undefined);
  }
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function stop(child: ChildProcess): void {
  untrackGroup(child);
  killGroup(child);
}

function setReferenced(child: ChildProcess, referenced: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as ({ ref?: () => void; unref?: () => void } | null)[]) {
    if (referenced) handle?.ref?.();
    else handle?.unref?.();
  }
}
