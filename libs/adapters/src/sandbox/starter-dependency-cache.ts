import { randomBytes, createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dependencySetFromPackageJson } from '@kiln/domain';
import { type DependencyCache, dependencySetKey, TEMP_PREFIX } from './dependency-cache.js';

/** The Kiln-owned script that starts Vite inside a sandbox (dev server and build). */
export const VITE_LAUNCHER_RELATIVE_PATH = 'libs/adapters/src/sandbox/runtime/vite-launcher.mjs';

export interface PreparedStarter {
  /** The cache folder, real path (bound read-only inside bubblewrap). */
  readonly cacheDir: string;
  /** The starter's dependency set's key (dependencySetKey): one installed tree per set. */
  readonly key: string;
  /** `<cacheDir>/deps-<key>/node_modules`, the target of every new sandbox's node_modules link. */
  readonly nodeModules: string;
  /** The launcher script, copied into the cache so commands inside bubblewrap can run it. */
  readonly launcher: string;
}

export interface StarterDependencyCacheOptions {
  /** Where every dependency set is installed; the starter's is just the first one. */
  readonly dependencies: DependencyCache;
  readonly templateDir: string;
  readonly launcherFile: string;
}

/**
 * The starter template's dependencies: its package.json's dependency set, installed once into the
 * shared DependencyCache (so a project whose package.json asks for the same set links to the same
 * tree), and Kiln's Vite launcher copied beside them.
 */
export class StarterDependencyCache {
  private prepared: Promise<PreparedStarter> | undefined;

  constructor(private readonly options: StarterDependencyCacheOptions) {}

  /** Installs (once) and answers where things are; a failure is forgotten so the next call retries. */
  prepare(): Promise<PreparedStarter> {
    if (this.prepared === undefined) {
      const attempt = this.prepareOnce();
      this.prepared = attempt;
      attempt.catch(() => {
        if (this.prepared === attempt) this.prepared = undefined;
      });
    }
    return this.prepared;
  }

  /** The cache folder's real path, created when missing (without installing anything). */
  realCacheDir(): Promise<string> {
    return this.options.dependencies.realCacheDir();
  }

  private async prepareOnce(): Promise<PreparedStarter> {
    const cacheDir = await this.realCacheDir();
    const manifest = await readFile(path.join(this.options.templateDir, 'package.json'), 'utf8');
    const set = dependencySetFromPackageJson(manifest);
    if (!set.ok) throw new Error(`The starter template's package.json cannot be installed: ${set.error.message}`);
    const nodeModules = await this.options.dependencies.install(set.value);
    const launcher = await this.installLauncher(cacheDir);
    return { cacheDir, key: dependencySetKey(set.value), nodeModules, launcher };
  }

  /** Content-addressed, so versions side by side never overwrite one another. */
  private async installLauncher(cacheDir: string): Promise<string> {
    const source = await readFile(this.options.launcherFile);
    const dir = path.join(cacheDir, 'runtime');
    const target = path.join(dir, `vite-launcher-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`);
    if (await isFile(target)) return target;
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
    await writeFile(temp, source);
    await rename(temp, target);
    return target;
  }
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isFile() === true;
}
