import type { SandboxLimits } from './isolation/sandbox-limits.js';

/** How a LocalSandboxHost is set up (main.ts, the tests). */
export interface LocalSandboxHostOptions {
  /** Folder holding one folder per project (`DATA_DIR/sandboxes`). Created when missing. */
  readonly root: string;
  /** The starter template; default `<cwd>/libs/adapters/src/sandbox/starter`. */
  readonly templateDir?: string;
  /** bubblewrap binary; null disables it. Default /usr/bin/bwrap when that file exists. */
  readonly bwrapPath?: string | null;
  /** Per-stream output cap of a command; default limits.outputBytes. */
  readonly outputCapBytes?: number;
  /** What one sandbox may use (memory, CPU share, processes, disk, open files, output); defaults in sandbox-limits.ts. */
  readonly limits?: Partial<SandboxLimits>;
  /**
   * Kiln's own folder for sandbox runtime state, never visible inside a sandbox: the generated
   * /etc files and each dev server's Unix socket. Default `<root>/../sandbox-run`.
   */
  readonly runtimeDir?: string;
  /** Use cgroups for memory, CPU and process limits when the machine offers them (default true). */
  readonly cgroups?: boolean;
  /**
   * How the project folder's size limit is enforced. 'volume': each project folder is its own
   * ext4 volume of that size (the kernel refuses writes past it; needs root and loop devices, see
   * ProjectVolumes); 'watch' (default): any one file by RLIMIT_FSIZE, the folder by a measurement
   * every second while something runs. main.ts uses 'volume' where the machine allows it.
   */
  readonly diskQuota?: 'volume' | 'watch';
  /** PATH for commands; default the host's PATH (the only variable taken from it). */
  readonly commandPath?: string;
  /**
   * Where the starter's dependencies are installed once and shared by every sandbox (each gets
   * `node_modules` as a link into it); read-only inside bubblewrap. Default `<root>/../sandbox-cache`,
   * beside the sandboxes folder (never inside it: that folder is hidden inside bubblewrap).
   * null: sandboxes get no node_modules (nothing can build or serve them).
   */
  readonly cacheDir?: string | null;
  /** The Vite launcher script; default `<cwd>/libs/adapters/src/sandbox/runtime/vite-launcher.mjs`. */
  readonly launcherFile?: string;
  /** A dev server without a devServer() call for this long is stopped (default 10 min). */
  readonly idleStopMs?: number;
  /**
   * Keep the next new project's dev server started ahead (WarmDevServer), where sandboxes are
   * isolated and the starter's dependencies are cached. main.ts turns it on; default off, so a
   * test's host runs no process it did not ask for.
   */
  readonly warmDevServer?: boolean;
  /** A dev server that does not listen within this long is stopped and 'failed' (default 2 min). */
  readonly devServerStartTimeoutMs?: number;
  /** One npm install of a project's dependency set may take this long (default 5 min). */
  readonly dependencyInstallTimeoutMs?: number;
}
