import { randomBytes } from 'node:crypto';
import { lstat, readlink, rename, stat, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { type DependencyInstallResult, type DependencySet, dependencySetFromPackageJson, type DevServerState } from '@kiln/domain';
import type { DependencyCache } from './dependency-cache.js';
import type { DevServers } from './dev-servers.js';
import { KeyedQueue } from './keyed-queue.js';
import type { StarterDependencyCache } from './starter-dependency-cache.js';

/** What the preview says while a project's new dependencies install (no dev server runs yet). */
export const INSTALLING_DEPENDENCIES_MESSAGE = 'Installing the packages in package.json';

/** What making node_modules match package.json did. */
export type DependencySync =
  /** Nothing to do: the link is on the set's tree, or there is no link to manage. */
  | { readonly kind: 'unchanged' }
  /** The set was installed (or found installed) and the link re-pointed to it. */
  | { readonly kind: 'relinked'; readonly target: string }
  /** package.json asks for what cannot be installed, or npm failed: the link stays where it was. */
  | { readonly kind: 'failed'; readonly message: string };

const UNCHANGED: DependencySync = Object.freeze({ kind: 'unchanged' });


export interface ProjectDependenciesOptions {
  /** Installed trees, one per dependency set; null: node_modules is not managed. */
  readonly dependencies: DependencyCache | null;
  /** The starter's tree (a missing or dangling link goes back to it); null without a cache. */
  readonly starter: StarterDependencyCache | null;
  /** A project file's text, read race-free (package.json). */
  readonly readFile: (sandboxId: string, path: string) => Promise<string>;
  /** The sandbox's lock, held while the link is swapped so no version saved sees the temporary link. */
  readonly serialised: <T>(sandboxId: string, work: () => Promise<T>) => Promise<T>;
  readonly devServers: Pick<DevServers, 'isActive' | 'restart'>;
}

/**
 * A local sandbox's node_modules: a link into the shared cache, kept on the installed tree of the
 * dependency set its package.json asks for (the set installed first, once for every project).
 */
export class ProjectDependencies {
  /** One dependency sync at a time per sandbox (install, then the link swap). */
  private readonly syncs = new KeyedQueue();
  /** Syncs started by devServer() that nobody waits for, one per sandbox at most. */
  private readonly backgroundSyncs = new Map<string, Promise<void>>();

  constructor(private readonly options: ProjectDependenciesOptions) {}

  /**
   * What devServer() needs first: a dependency set already installed is linked at once; one not
   * installed yet installs in the background, and a stopped dev server is reported as starting
   * with INSTALLING_DEPENDENCIES_MESSAGE meanwhile (that state is answered; null: ask DevServers).
   */
  async beforeDevServer(sandboxId: string, projectDir: string): Promise<DevServerState | null> {
    const wanted = await this.wanted(sandboxId, projectDir);
    if (wanted !== null && 'set' in wanted && this.options.dependencies !== null) {
      const current = await readlink(path.join(projectDir, 'node_modules')).catch(() => null);
      if (current !== wanted.target || !(await isDirectory(wanted.target))) {
        if (await isDirectory(wanted.target)) {
          await this.sync(sandboxId, projectDir, { restartDevServer: true });
        } else if (!this.options.dependencies.recentlyFailed(wanted.set)) {
          this.syncInBackground(sandboxId, projectDir);
          if (!this.options.devServers.isActive(sandboxId)) return { status: 'starting', socketPath: null, message: INSTALLING_DEPENDENCIES_MESSAGE };
        }
        // A set that failed just now: the launch reports npm's error (without running it again).
      }
    }
    return null;
  }

  /**
   * Makes the project's node_modules link point at the installed tree of its package.json's
   * dependency set, installing that set first (once, shared by every project asking for it).
   * Only a node_modules that is a link is managed: a missing one is ensure's to restore, a real
   * folder is left alone, and so is a project without package.json. One sync at a time per
   * sandbox; the link is swapped atomically (a new link renamed over the old), under the sandbox's
   * git lock so no commit sees the temporary link. When the link changed and `restartDevServer`,
   * a starting or running dev server is restarted so Vite sees the new packages.
   */
  async sync(sandboxId: string, projectDir: string, { restartDevServer }: { restartDevServer: boolean }): Promise<DependencySync> {
    const dependencies = this.options.dependencies;
    if (dependencies === null) return UNCHANGED;
    const result = await this.syncs.run(sandboxId, async (): Promise<DependencySync> => {
      const wanted = await this.wanted(sandboxId, projectDir);
      if (wanted === null) return UNCHANGED;
      if (!('set' in wanted)) return { kind: 'failed', message: wanted.problem };
      const link = path.join(projectDir, 'node_modules');
      if ((await readlink(link).catch(() => null)) === wanted.target && (await isDirectory(wanted.target))) return UNCHANGED;
      let target: string;
      try {
        target = await dependencies.install(wanted.set);
      } catch (e) {
        return { kind: 'failed', message: `Installing the packages in package.json failed: ${errorText(e)}` };
      }
      await this.options.serialised(sandboxId, async () => {
        // Still a link (a command may have replaced it meanwhile)? Then swap it.
        if ((await lstat(link).catch(() => null))?.isSymbolicLink() !== true) return;
        const temp = path.join(projectDir, `.kiln-node_modules-${randomBytes(6).toString('hex')}`);
        await symlink(target, temp, 'dir');
        try {
          await rename(temp, link);
        } catch (e) {
          await unlink(temp).catch(() => undefined);
          throw e;
        }
      });
      return { kind: 'relinked', target };
    });
    if (result.kind === 'relinked' && restartDevServer && this.options.devServers.isActive(sandboxId)) await this.options.devServers.restart(sandboxId);
    return result;
  }

  /**
   * SandboxDependencies.installDependencies (the terminal's `npm install`): a missing or dangling
   * link goes back to the starter's tree first, then the same sync as find-errors and the dev
   * server (install the set into the shared cache once, swap the link, restart a running dev
   * server). node_modules is never written: only the link is replaced, atomically.
   */
  async install(sandboxId: string, projectDir: string, onProgress?: (line: string) => void): Promise<DependencyInstallResult> {
    if (this.options.dependencies === null) return { kind: 'not-managed', message: 'This server keeps no shared package cache, so node_modules is not managed here.' };
    await this.repairLink(projectDir);
    if ((await lstat(path.join(projectDir, 'node_modules')).catch(() => null))?.isSymbolicLink() !== true) {
      return { kind: 'not-managed', message: "node_modules is a folder of the project's own, so Kiln leaves it alone (delete it to use the shared package cache)." };
    }
    onProgress?.('Installing the packages in package.json into the shared package cache (each set of packages is installed once)…');
    const synced = await this.sync(sandboxId, projectDir, { restartDevServer: true });
    if (synced.kind === 'failed') return { kind: 'failed', message: synced.message };
    return synced.kind === 'relinked' ? { kind: 'installed' } : { kind: 'up-to-date' };
  }

  /** A sync nobody waits for (devServer's); at most one queued per sandbox. */
  private syncInBackground(sandboxId: string, projectDir: string): void {
    if (this.backgroundSyncs.has(sandboxId)) return;
    const run = this.sync(sandboxId, projectDir, { restartDevServer: true })
      .then(() => undefined, () => undefined) // a failure shows at the launch and in find-errors
      .finally(() => this.backgroundSyncs.delete(sandboxId));
    this.backgroundSyncs.set(sandboxId, run);
  }

  /**
   * What package.json asks for: its dependency set and where that set's tree is, or why it cannot
   * be installed. null: nothing to manage (no cache, node_modules is not a link, no package.json).
   */
  private async wanted(
    sandboxId: string,
    projectDir: string,
  ): Promise<{ readonly set: DependencySet; readonly target: string } | { readonly problem: string } | null> {
    if (this.options.dependencies === null) return null;
    if ((await lstat(path.join(projectDir, 'node_modules')).catch(() => null))?.isSymbolicLink() !== true) return null;
    if ((await lstat(path.join(projectDir, 'package.json')).catch(() => null)) === null) return null;
    let text: string;
    try {
      text = await this.options.readFile(sandboxId, 'package.json');
    } catch (e) {
      return { problem: `package.json cannot be read: ${errorText(e)}` };
    }
    const set = dependencySetFromPackageJson(text);
    if (!set.ok) return { problem: set.error.message };
    return { set: set.value, target: await this.options.dependencies.nodeModulesFor(set.value) };
  }

  /**
   * An existing sandbox whose node_modules link is missing or dangling (the cache was removed)
   * gets a link to the current starter's dependencies again. A real node_modules folder is left.
   */
  async repairLink(dir: string): Promise<void> {
    const link = path.join(dir, 'node_modules');
    const info = await lstat(link).catch(() => null);
    if (this.options.starter === null || (info !== null && (!info.isSymbolicLink() || (await stat(link).catch(() => null)) !== null))) return;
    const starter = await this.options.starter.prepare();
    if (info !== null) await unlink(link);
    await symlink(starter.nodeModules, link, 'dir');
  }
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() === true;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
