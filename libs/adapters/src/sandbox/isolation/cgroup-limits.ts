import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from './process-alive.js';
import type { SandboxLimits } from './sandbox-limits.js';

const CGROUP_ROOT = '/sys/fs/cgroup';
/** The v1 controllers Kiln uses, and the file of each that holds the limit. */
const V1_CONTROLLERS = ['pids', 'memory', 'cpu'] as const;
type V1Controller = (typeof V1_CONTROLLERS)[number];
const GROUP_PREFIX = 'kiln-sandboxes-';

/** Which kind of cgroup a host could use (docs/security.md "Limits"). */
export type CgroupMode = 'v2' | 'v1' | 'none';

/**
 * One cgroup per sandbox, holding every process of it (commands, checks, the dev server): memory,
 * process count and CPU share are limits of the sandbox as a whole, and stopping a sandbox can
 * kill every process in it. The groups live under a folder of this host instance
 * (`kiln-sandboxes-<pid>-<random>`, under Kiln's own cgroup), removed on close; folders left by a
 * dead instance are removed at start when empty.
 *
 * cgroup v2 (the unified hierarchy) is used when Kiln's cgroup can delegate pids, memory and cpu
 * to children; otherwise the v1 pids, memory and cpu hierarchies when they are mounted and
 * writable (Kiln runs as root); otherwise none, and only rlimits apply (see jail-command.ts).
 */
export class CgroupLimits {
  /** Group ids whose groups get the least CPU weight (inBackground). */
  private readonly background = new Set<string>();

  private constructor(
    readonly mode: CgroupMode,
    /** Per controller (v1) or the single unified folder (v2, key 'unified'): this instance's folder. */
    private readonly bases: ReadonlyMap<string, string>,
    private readonly limits: SandboxLimits,
  ) {}

  static none(limits: SandboxLimits): CgroupLimits {
    return new CgroupLimits('none', new Map(), limits);
  }

  /** Finds a usable cgroup hierarchy and makes this instance's folder in it. */
  static async detect(limits: SandboxLimits): Promise<CgroupLimits> {
    const own = await ownCgroups();
    const instance = `${GROUP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`;
    if (existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'))) {
      const base = await tryV2(path.join(CGROUP_ROOT, own.get('') ?? '/'), instance);
      if (base !== null) return new CgroupLimits('v2', new Map([['unified', base]]), limits);
    }
    const bases = new Map<string, string>();
    for (const controller of V1_CONTROLLERS) {
      const mount = path.join(CGROUP_ROOT, controller);
      const ownPath = own.get(controller);
      if (ownPath === undefined || !existsSync(path.join(mount, 'cgroup.procs'))) continue;
      const parent = path.join(mount, ownPath);
      await removeStale(parent);
      const base = path.join(parent, instance);
      try {
        await mkdir(base);
        bases.set(controller, base);
      } catch {
        // not writable (not root, or read-only): this controller is not used
      }
    }
    // Without the process limit the other two are not worth a partial setup.
    if (!bases.has('pids')) {
      await Promise.all([...bases.values()].map((b) => rmdir(b).catch(() => undefined)));
      return CgroupLimits.none(limits);
    }
    return new CgroupLimits('v1', bases, limits);
  }

  /** Which limits the cgroups enforce, for the log and docs. */
  describe(): string {
    if (this.mode === 'none') return 'no cgroups (rlimits only: open files, file size; processes only when Kiln is not root)';
    if (this.mode === 'v2') return 'cgroup v2: memory, processes, CPU weight';
    return `cgroup v1: ${[...this.bases.keys()].join(', ')}`;
  }

  /**
   * Creates (or keeps) the sandbox's group with its limits and answers the `cgroup.procs` files a
   * process must write its pid to, before it starts anything, to join it.
   */
  /**
   * Groups made from now on for `groupId` get the least CPU weight: what runs there (a dev server
   * warming up ahead of its project) takes only CPU nobody else wants. Moving its processes to a
   * sandbox's group (`move`) gives them that group's weight.
   */
  inBackground(groupId: string): void {
    this.background.add(groupId);
  }

  async join(sandboxId: string): Promise<readonly string[]> {
    if (this.mode === 'none') return [];
    const files: string[] = [];
    for (const [controller, base] of this.bases) {
      const dir = path.join(base, sandboxId);
      await mkdir(dir, { recursive: true });
      await this.apply(controller, dir, this.background.has(sandboxId));
      files.push(path.join(dir, 'cgroup.procs'));
    }
    return files;
  }

  /**
   * Moves every process of group `from` into group `to` (created with its limits) and removes
   * `from`: a dev server started ahead of its sandbox joins the sandbox it now serves.
   */
  async move(from: string, to: string): Promise<void> {
    if (this.mode === 'none') return;
    const targets = await this.join(to);
    let index = 0;
    for (const base of this.bases.values()) {
      const target = targets[index++];
      for (const pid of await processesIn(path.join(base, from))) {
        await writeFile(target as string, String(pid)).catch(() => undefined); // gone meanwhile
      }
      await rmdir(path.join(base, from)).catch(() => undefined);
    }
    this.background.delete(from);
  }

  /** Kills every process of the sandbox (all of them, wherever they forked to). */
  async killAll(sandboxId: string): Promise<void> {
    const dir = this.groupFor(sandboxId);
    if (dir === null) return;
    if (this.mode === 'v2' && existsSync(path.join(dir, 'cgroup.kill'))) {
      await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => undefined);
    }
    // A fork may land while the list is read: go round until the group is empty.
    for (let round = 0; round < 50; round += 1) {
      const pids = await processesIn(dir);
      if (pids.length === 0) return;
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** How many processes the sandbox has now (0 without cgroups). */
  async processCount(sandboxId: string): Promise<number> {
    const dir = this.groupFor(sandboxId);
    return dir === null ? 0 : (await processesIn(dir)).length;
  }

  /** Removes the sandbox's group (its processes are killed first). */
  async remove(sandboxId: string): Promise<void> {
    this.background.delete(sandboxId);
    await this.killAll(sandboxId);
    for (const base of this.bases.values()) await rmdir(path.join(base, sandboxId)).catch(() => undefined);
  }

  /** Removes every group of this instance (API shutdown). */
  async close(): Promise<void> {
    for (const base of this.bases.values()) {
      const children = await readdir(base).catch(() => [] as string[]);
      for (const child of children) {
        if (existsSync(path.join(base, child, 'cgroup.procs'))) {
          await this.killAll(child);
          await rmdir(path.join(base, child)).catch(() => undefined);
        }
      }
      await rmdir(base).catch(() => undefined);
    }
  }

  private groupFor(sandboxId: string): string | null {
    const base = this.bases.get(this.mode === 'v2' ? 'unified' : 'pids');
    return base === undefined ? null : path.join(base, sandboxId);
  }

  private async apply(controller: string, dir: string, background: boolean): Promise<void> {
    const { memoryBytes, processes } = this.limits;
    const cpuShares = background ? 2 : this.limits.cpuShares;
    const settings: Record<string, Record<string, string>> = {
      unified: {
        'pids.max': String(processes),
        'memory.max': String(memoryBytes),
        'memory.swap.max': '0',
        // v2's weight is 1..10000 with 100 the default; v1's shares 1024.
        'cpu.weight': String(Math.max(1, Math.min(10_000, Math.round((cpuShares * 100) / 1024)))),
      },
      pids: { 'pids.max': String(processes) },
      memory: { 'memory.limit_in_bytes': String(memoryBytes) },
      cpu: { 'cpu.shares': String(Math.max(2, cpuShares)) },
    } satisfies Record<'unified' | V1Controller, Record<string, string>>;
    for (const [file, value] of Object.entries(settings[controller] ?? {})) {
      const target = path.join(dir, file);
      if (!existsSync(target)) continue; // e.g. no swap accounting
      await writeFile(target, value);
    }
  }
}

/** This process's cgroup path per v1 controller, and '' for the unified (v2) hierarchy. */
async function ownCgroups(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const text = await readFile('/proc/self/cgroup', 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [, controllers, cgroupPath] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (controllers === undefined || cgroupPath === undefined) continue;
    for (const c of controllers.split(',')) out.set(c, cgroupPath);
  }
  return out;
}

/** The unified hierarchy, when Kiln's own group may hand pids, memory and cpu to a child of it. */
async function tryV2(own: string, instance: string): Promise<string | null> {
  try {
    const available = (await readFile(path.join(own, 'cgroup.controllers'), 'utf8')).split(/\s+/);
    if (!['pids', 'memory', 'cpu'].every((c) => available.includes(c))) return null;
    await removeStale(own);
    const base = path.join(own, instance);
    await mkdir(base);
    try {
      // Fails when Kiln's own group holds processes (cgroup v2's no-internal-process rule) and is
      // not the root: run Kiln in a delegated group (systemd Delegate=yes) to use v2.
      await writeFile(path.join(own, 'cgroup.subtree_control'), '+pids +memory +cpu');
      await writeFile(path.join(base, 'cgroup.subtree_control'), '+pids +memory +cpu');
      return base;
    } catch {
      await rmdir(base).catch(() => undefined);
      return null;
    }
  } catch {
    return null;
  }
}

/** Folders of instances whose process is gone; a group still holding processes is left alone. */
async function removeStale(parent: string): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^kiln-sandboxes-(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || isAlive(pid)) continue;
    const dir = path.join(parent, name);
    for (const child of await readdir(dir).catch(() => [] as string[])) await rmdir(path.join(dir, child)).catch(() => undefined);
    await rmdir(dir).catch(() => undefined);
  }
}

async function processesIn(dir: string): Promise<number[]> {
  const text = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}
