import type { SandboxLimits } from './sandbox-limits.js';

/** util-linux's prlimit sets rlimits on what it runs. */
export const PRLIMIT_PATH = '/usr/bin/prlimit';

/**
 * Joins the cgroups given before `--` (writes its own pid to each `cgroup.procs`), then execs the
 * rest: nothing runs outside the sandbox's group, not even for an instant.
 */
const JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"';

export interface JailCommandOptions {
  readonly limits: SandboxLimits;
  /** The sandbox's `cgroup.procs` files (CgroupLimits.join), empty without cgroups. */
  readonly cgroupProcs: readonly string[];
  /** Whether prlimit is installed (rlimits are skipped otherwise, and docs say so). */
  readonly prlimit: boolean;
  /** bubblewrap and its arguments (BubblewrapJail.args). */
  readonly bwrap: readonly string[];
  /** What runs inside. */
  readonly argv: readonly string[];
}

/**
 * The whole command line of a sandboxed process: `sh` joining the sandbox's cgroups, `prlimit`
 * with the per-process limits (open files; any one file's size, so a single write can never pass
 * the disk limit; the process count only when there is no cgroup, as RLIMIT_NPROC counts every
 * process of the user), then bubblewrap.
 */
export function jailCommand({ limits, cgroupProcs, prlimit, bwrap, argv }: JailCommandOptions): string[] {
  const rlimits = prlimit
    ? [
        PRLIMIT_PATH,
        `--nofile=${limits.openFiles}:${limits.openFiles}`,
        `--fsize=${limits.diskBytes}:${limits.diskBytes}`,
        ...(cgroupProcs.length === 0 ? [`--nproc=${limits.processes}:${limits.processes}`] : []),
        '--',
      ]
    : [];
  const inner = [...rlimits, ...bwrap, '--', ...argv];
  return cgroupProcs.length === 0 ? inner : ['/bin/sh', '-c', JOIN_CGROUPS, 'kiln-jail', ...cgroupProcs, '--', ...inner];
}
