/**
 * What one project's sandbox may use (docs/security.md "Limits"). Memory, CPU share and processes
 * are enforced by a cgroup per sandbox where the machine offers one (see cgroup-limits.ts); open
 * files and the size of any one file by rlimits on every sandboxed process; the project folder's
 * size by the host (writes through the file API are refused, a command that grows the folder past
 * it is stopped); output by the command runner.
 */
export interface SandboxLimits {
  /** All processes of one sandbox together (cgroup memory limit). */
  readonly memoryBytes: number;
  /** Relative CPU weight of a sandbox (cgroup v1 cpu.shares, 1024 = one ordinary process group). */
  readonly cpuShares: number;
  /** Processes and threads of one sandbox together (cgroup pids.max; RLIMIT_NPROC without cgroups). */
  readonly processes: number;
  /** The project folder's size (its dependency tree, shared and read-only, is not counted). */
  readonly diskBytes: number;
  /** Open files per process (RLIMIT_NOFILE). */
  readonly openFiles: number;
  /** stdout and stderr of one command, each. */
  readonly outputBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  memoryBytes: 2 * 1024 ** 3,
  cpuShares: 512,
  processes: 512,
  diskBytes: 1024 ** 3,
  openFiles: 4096,
  outputBytes: 1024 * 1024,
});

/** The defaults with `overrides` on top; every value must be a positive safe integer. */
export function sandboxLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`Sandbox limit ${name} must be a positive whole number, got ${String(value)}`);
  }
  return Object.freeze(limits);
}

/** A limit as people read it: whole GiB, else MiB. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0 ? `${bytes / 1024 ** 3} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`;
}
