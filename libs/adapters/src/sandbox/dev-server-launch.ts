import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DependencySync } from './project-dependencies.js';
import type { SandboxProcesses } from './sandbox-processes.js';
import type { StarterDependencyCache } from './starter-dependency-cache.js';

/** The dev server's listening socket, as the launcher sees it (the fourth stdio entry). */
const LISTEN_FD = 3;

export interface DevServerLaunchOptions {
  /** Kiln's Vite launcher as seen inside the sandbox. */
  readonly launcher: () => Promise<string>;
  /** The starter's dependency tree (what a warm server imports); null without a cache. */
  readonly starter: StarterDependencyCache | null;
  /** The starter template (its package.json names the Vite plugins a new project's config imports). */
  readonly templateDir: string;
  readonly existingProjectDir: (sandboxId: string) => Promise<string>;
  /** Links the dependencies the project's package.json asks for (installing them first if needed). */
  readonly syncDependencies: (sandboxId: string, projectDir: string) => Promise<DependencySync>;
  /** A project process's whole command line (LocalSandboxJail, via the host's disk-limit gate). */
  readonly jailed: (groupId: string, projectDir: string, cwd: string, argv: readonly string[]) => Promise<string[]>;
  /** Counts a process's writes against the disk limit (the watch); null where volumes enforce it. */
  readonly watchDisk: ((sandboxId: string, projectDir: string) => Promise<() => void>) | null;
  /** What every process in a sandbox gets: none of the API's variables. */
  readonly env: (projectDir: string) => NodeJS.ProcessEnv;
  /**
   * Processes run elsewhere (a container), where no socket can be handed over: the launcher makes
   * its own at `listenPath(sandboxId)`, in a folder mounted into that sandbox alone.
   */
  readonly remote?: { readonly processes: SandboxProcesses; readonly listenPath: (sandboxId: string) => string };
}

/**
 * How LocalSandboxHost starts Vite: `vite-launcher.mjs dev <project>` for a project (DevServers'
 * launch), `warm` for the next new project (WarmDevServer's spawn). Both in bubblewrap like a
 * command (no network at all), serving on the listening Unix socket handed over as fd 3, each the
 * leader of its own process group so stopping kills everything it started. stdin stays an open
 * pipe: the launcher exits when it closes (Kiln's process died).
 */
export class DevServerLaunch {
  constructor(private readonly options: DevServerLaunchOptions) {}

  async dev(sandboxId: string, listenFd: number): Promise<ChildProcess> {
    const projectDir = await this.options.existingProjectDir(sandboxId);
    // Vite must start on the dependencies package.json asks for; if they cannot be installed the
    // dev server fails with npm's message (the preview shows it).
    const dependencies = await this.options.syncDependencies(sandboxId, projectDir);
    if (dependencies.kind === 'failed') throw new Error(dependencies.message);
    const remote = this.options.remote;
    const argv = [process.execPath, await this.options.launcher(), 'dev', projectDir, remote === undefined ? String(LISTEN_FD) : remote.listenPath(sandboxId)];
    const [file, ...args] = await this.options.jailed(sandboxId, projectDir, projectDir, argv);
    if (remote !== undefined) return remote.processes.spawn(sandboxId, [file as string, ...args], { cwd: projectDir, env: this.options.env(projectDir), stdin: 'pipe' });
    // The project's config and plugins run in it: its writes count against the disk limit too.
    const release = (await this.options.watchDisk?.(sandboxId, projectDir)) ?? (() => undefined);
    const child = spawn(file as string, args, { cwd: projectDir, env: this.options.env(projectDir), detached: true, stdio: ['pipe', 'pipe', 'pipe', listenFd] });
    child.once('close', release);
    child.once('error', release);
    return child;
  }

  /**
   * The `warm` mode for folder `dir` (cgroup `groupId`), in a sandbox built exactly as `dev`'s:
   * Vite and the starter's Vite plugins imported from the starter's tree, waiting for `go`.
   */
  async warm(groupId: string, dir: string, listenFd: number): Promise<ChildProcess> {
    const starter = await this.options.starter?.prepare();
    if (starter === undefined) throw new Error('No starter dependencies to warm a dev server with');
    const argv = [process.execPath, starter.launcher, 'warm', dir, String(LISTEN_FD), starter.nodeModules, ...(await this.starterVitePackages())];
    const [file, ...args] = await this.options.jailed(groupId, dir, dir, argv);
    // Its working folder is entered inside the sandbox; outside it keeps none (the folder moves).
    return spawn(file as string, args, { cwd: '/', env: this.options.env(dir), detached: true, stdio: ['pipe', 'pipe', 'pipe', listenFd] });
  }

  /** Vite and the Vite plugins the starter's package.json names (what a new project's config imports). */
  private async starterVitePackages(): Promise<string[]> {
    const manifest = JSON.parse(await readFile(path.join(this.options.templateDir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const names = Object.keys({ ...manifest['dependencies'], ...manifest['devDependencies'] });
    return ['vite', ...names.filter((name) => name !== 'vite' && /(^|[/-])vite($|[/-])|^@vitejs\//.test(name))];
  }
}
