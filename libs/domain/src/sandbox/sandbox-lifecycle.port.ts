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

/**
 * Where a project's sandbox machine stands (GET /api/fly/machine-status): 'running' (processes
 * may run now), 'paused' (frozen while idle, resumed on the next request), 'stopped' (nothing
 * runs; started on the next use), 'missing' (never made, or removed). Memory and CPU are the
 * engine's figures where it has them.
 */
export interface SandboxMachineState {
  /** Which host runs it: 'local' (bubblewrap on the API's machine), 'docker', 'memory'. */
  readonly engine: string;
  readonly state: 'running' | 'paused' | 'stopped' | 'missing';
  readonly memoryBytes: number | null;
  readonly cpuPercent: number | null;
}

/**
 * A project's sandbox coming and going (SPEC §4 stage 1, §7), and the host's own shutdown. There
 * is one sandbox per project, so `sandboxId` is the project id.
 */
export interface SandboxLifecycle {
  /** Creates the project's sandbox if it is missing (SPEC §4 stage 1); otherwise describes it. */
  ensure(projectId: string): Promise<SandboxInfo>;
  /** Where its machine stands; a malformed id rejects. */
  machineState(sandboxId: string): Promise<SandboxMachineState>;
  /** Removes the sandbox and everything in it (its dev server stops). */
  cleanup(sandboxId: string): Promise<void>;
  /**
   * Stops everything the host runs for every sandbox (API shutdown): dev servers, and whatever
   * the host keeps beside them (limits, volumes, the install proxy). The next call starts again.
   */
  stopAll(): Promise<void>;
}
