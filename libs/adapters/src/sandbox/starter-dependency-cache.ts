import { randomBytes, createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dependencySetFromPackageJson } from '@kiln/domain';
import { type DependencyCache, dependencySetKey, TEMP_PREFIX } from './dependency-cache.js';

/** The Kiln-owned script that starts Vite inside a sandbox (dev server and build). */
export const VITE_LAUNCHER_RELATIVE_PATH = 'libs/adapters/src/sandbox/runtime/vite-launcher.mjs';
/** The modules the launcher imports from its own folder (installed beside it). */
export const LAUNCHER_COMPANIONS: readonly string[] = ['warm-checks.mjs'];

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

  /**
   * The launcher and the modules it imports, in one folder `runtime/vite-launcher-<hash>/` named by
   * their content, so versions side by side never overwrite one another; written under a temporary
   * name and renamed, so nobody runs half a folder.
   */
  private async installLauncher(cacheDir: string): Promise<string> {
    const sourceDir = path.dirname(this.options.launcherFile);
    const names = [path.basename(this.options.launcherFile), ...LAUNCHER_COMPANIONS];
    const sources = await Promise.all(names.map((name) => readFile(path.join(sourceDir, name))));
    const hash = createHash('sha256');
    for (const [i, source] of sources.entries()) hash.update(`${names[i]}\0${source.length}\0`).update(source);
    const runtimeDir = path.join(cacheDir, 'runtime');
    const target = path.join(runtimeDir, `vite-launcher-${hash.digest('hex').slice(0, 16)}`);
    const launcher = path.join(target, names[0] as string);
    if (await isFile(launcher)) return launcher;
    const temp = path.join(runtimeDir, `${TEMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(temp, { recursive: true });
    await Promise.all(sources.map((source, i) => writeFile(path.join(temp, names[i] as string), source)));
    try {
      await rename(temp, target);
    } catch (e) {
      // Another process installed the same folder first.
      await rm(temp, { recursive: true, force: true });
      if (!(await isFile(launcher))) throw e;
    }
    return launcher;
  }
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isFile() === true;
}
