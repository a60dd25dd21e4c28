/** The state of a sandbox's dev server, the process behind the live preview (SPEC §3 status). */
export type DevServerStatus = 'stopped' | 'starting' | 'running' | 'failed';

export interface DevServerState {
  readonly status: DevServerStatus;
  /**
   * Where the API reaches the dev server while starting or running: a Unix socket on Kiln's side of
   * the sandbox (the sandbox has no network); null otherwise.
   */
  readonly socketPath: string | null;
  /** A short sentence for the builder's status line, e.g. 'Website is running'. */
  readonly message: string;
}

/** Something that happened in a sandbox outside a request's own reply (the builder's realtime feed). */
export type SandboxHostEvent = { readonly type: 'dev-server'; readonly sandboxId: string; readonly state: DevServerState };

/** A sandbox's dev server, the live preview (SPEC §7 restart-dev, the preview proxy, the builder's feed). */
export interface SandboxDevServer {
  /** Restarts the project's dev server (the live preview). */
  restartDev(sandboxId: string): Promise<void>;
  /**
   * The dev server's state, starting it when it is stopped (a failed one again after the host's
   * retry back-off; restartDev retries at once) and the sandbox exists; it
   * answers at once (status 'starting') rather than waiting. Every call counts as activity: a dev
   * server nobody asked for during the host's idle time is stopped, and started again by the next
   * call. Rejects when there is no sandbox.
   */
  devServer(sandboxId: string): Promise<DevServerState>;
  /** Listens to dev-server state changes of every sandbox; returns the unsubscribe function. */
  subscribe(listener: (event: SandboxHostEvent) => void): () => void;
}
