import type { ChildProcess } from 'node:child_process';
import type { BubblewrapJail } from './isolation/bubblewrap-jail.js';

/**
 * Where a sandbox's processes run when it is not the local machine (ContainerSandboxHost: an exec
 * in the project's container). The returned process behaves as a detached child of Kiln: stdout
 * and stderr, stdin when asked for, 'error', 'exit' and 'close'; killProcessGroup stops it and
 * everything it started.
 */
export interface SandboxProcesses {
  spawn(sandboxId: string, argv: readonly string[], options: SandboxSpawnOptions): ChildProcess;
}

export interface SandboxSpawnOptions {
  /** The working folder, as seen inside the sandbox. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** 'pipe': what Kiln writes reaches the program (the dev server); 'ignore': its stdin is empty. */
  readonly stdin: 'ignore' | 'pipe';
}

/** A process that is not a local child says how its group is killed. */
export const KILL_GROUP = Symbol('killGroup');

/** Kills a sandboxed process with its whole group (a local child's group, or the remote one's own way). */
export function killProcessGroup(child: ChildProcess): void {
  const own = (child as ChildProcess & { [KILL_GROUP]?: () => void })[KILL_GROUP];
  if (own !== undefined) {
    own.call(child);
    return;
  }
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Where a subclass runs the sandbox's processes instead of local children (ContainerSandboxHost):
 * its processes, the path each dev server makes its socket at (in a folder of that sandbox alone),
 * and how that socket is checked and made reachable at the host's socket path.
 */
export interface RemoteSandboxProcesses {
  readonly processes: SandboxProcesses;
  readonly listenPath: (sandboxId: string) => string;
  readonly publish: (sandboxId: string, socketPath: string) => Promise<void>;
  /** Kiln changed the project from outside and tells its dev server: the sandbox must be awake to hear it. */
  readonly wake: (sandboxId: string) => void;
  /** bubblewrap for npm installs into the shared cache (behind the registry-only proxy); null: none here. */
  readonly installJail: BubblewrapJail | null;
}
