import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { canonicalDependencySet, type DependencySet } from '@kiln/domain';

/** One install (a cold npm cache, a big set) may take this long; then npm is killed. */
export const DEFAULT_INSTALL_TIMEOUT_MS = 5 * 60_000;
/**
 * A set whose install failed answers the same error without running npm again for this long,
 * doubling per failure in a row up to FAILED_INSTALL_RETRY_MAX_MS (a preview left open on a
 * project asking for a package that does not exist must not run npm every few seconds).
 */
export const FAILED_INSTALL_RETRY_MS = 30_000;
export const FAILED_INSTALL_RETRY_MAX_MS = 5 * 60_000;
/** Half-finished installs (a process killed mid-way) older than this are removed. */
const STALE_TEMP_MS = 60 * 60_000;
export const TEMP_PREFIX = '.tmp-';
/** npm's own cache for Kiln's installs, inside the dependency cache (the only other folder npm writes). */
export const NPM_CACHE_DIR = 'npm-cache';
/** What npm printed, kept for the error message (its end: that is where npm says what went wrong). */
const OUTPUT_TAIL_BYTES = 64 * 1024;
const ERROR_LINES = 15;
/**
 * Vite's bundling config loader writes the bundled config into `node_modules/.vite-temp`, which is
 * read-only in the sandbox. Each tree holds `.vite-temp` as a link to this folder of the sandbox's
 * own private /tmp (the launcher creates it), so Vite's fastest loader works there too.
 */
export const VITE_TEMP_LINK = '.vite-temp';
export const VITE_TEMP_TARGET = '/tmp/kiln-vite-temp';

/** Host variables npm may need to reach its registry; nothing else of the API's environment. */
const NPM_ENV_PASSTHROUGH = /^(npm_config_.*|NPM_CONFIG_.*|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/;

/** The name of a set's installed tree: equal sets (whatever their package.json's order) share one. */
export function dependencySetKey(set: DependencySet): string {
  return createHash('sha256').update(canonicalDependencySet(set)).digest('hex').slice(0, 16);
}

/** One `npm install` to run: the folder holding the package.json, and npm's cache folder. */
export interface NpmInstallRequest {
  /** The temporary install folder: npm may write here… */
  readonly dir: string;
  /** …and here (its download cache), nowhere else. */
  readonly npmCache: string;
  readonly timeoutMs: number;
}

/** Runs npm install for a request; rejects with a message people can act on. */
export type NpmInstaller = (request: NpmInstallRequest) => Promise<void>;

export interface DependencyCacheOptions {
  readonly cacheDir: string;
  readonly installer: NpmInstaller;
  /** Default DEFAULT_INSTALL_TIMEOUT_MS. */
  readonly installTimeoutMs?: number;
  /** Default FAILED_INSTALL_RETRY_MS (doubling per failure in a row, at most 10 times as long). */
  readonly failedRetryMs?: number;
  /** Milliseconds now (default Date.now). */
  readonly now?: () => number;
}

/**
 * Installed dependency trees, one per dependency set: `<cacheDir>/deps-<dependencySetKey>/node_modules`,
 * shared (through a symlink) by every sandbox whose package.json asks for that set. Installs go into
 * a fresh temporary folder that is renamed into place, so concurrent callers — in this process or
 * in others sharing the folder — never see half a tree; the first rename wins and the others throw
 * their copy away. In this process one set installs once however many callers ask. Installed trees
 * are never removed or changed: sandboxes link to them, and a link names its tree's content.
 */
export class DependencyCache {
  private readonly installing = new Map<string, Promise<string>>();
  private readonly failures = new Map<string, { readonly at: number; readonly error: Error; readonly count: number }>();
  private installsStarted = 0;

  constructor(private readonly options: DependencyCacheOptions) {}

  /** The cache folder's real path, created when missing (without installing anything). */
  async realCacheDir(): Promise<string> {
    await mkdir(this.options.cacheDir, { recursive: true });
    return realpath(this.options.cacheDir);
  }

  /** Where the set's tree is, or will be once installed. */
  async nodeModulesFor(set: DependencySet): Promise<string> {
    return path.join(await this.realCacheDir(), `deps-${dependencySetKey(set)}`, 'node_modules');
  }

  /** Whether installing the set failed within the retry delay (install would answer that error at once). */
  recentlyFailed(set: DependencySet): boolean {
    const failed = this.failures.get(dependencySetKey(set));
    if (failed === undefined) return false;
    const base = this.options.failedRetryMs ?? FAILED_INSTALL_RETRY_MS;
    const max = this.options.failedRetryMs === undefined ? FAILED_INSTALL_RETRY_MAX_MS : base * 10;
    return this.now() - failed.at < Math.min(max, base * 2 ** (failed.count - 1));
  }

  /** How many npm installs this cache started (tests: a set already installed starts none). */
  get installCount(): number {
    return this.installsStarted;
  }

  /**
   * The set's node_modules, installed first unless it is there already. A failure is remembered
   * for the retry delay: callers in that time get the same error without running npm again.
   */
  install(set: DependencySet): Promise<string> {
    const key = dependencySetKey(set);
    const failed = this.failures.get(key);
    if (failed !== undefined && this.recentlyFailed(set)) return Promise.reject(failed.error);
    let running = this.installing.get(key);
    if (running === undefined) {
      running = this.installOnce(set, key)
        .then(
          (nodeModules) => {
            this.failures.delete(key);
            return nodeModules;
          },
          (e: unknown) => {
            const error = e instanceof Error ? e : new Error(String(e));
            this.failures.set(key, { at: this.now(), error, count: (this.failures.get(key)?.count ?? 0) + 1 });
            throw error;
          },
        )
        .finally(() => this.installing.delete(key));
      this.installing.set(key, running);
    }
    return running;
  }

  private async installOnce(set: DependencySet, key: string): Promise<string> {
    const cacheDir = await this.realCacheDir();
    const depsDir = path.join(cacheDir, `deps-${key}`);
    const nodeModules = path.join(depsDir, 'node_modules');
    if (await isDirectory(nodeModules)) {
      await linkViteTemp(nodeModules); // trees installed before the link existed
      return nodeModules;
    }
    await removeStaleTemps(cacheDir);
    const npmCache = path.join(cacheDir, NPM_CACHE_DIR);
    await mkdir(npmCache, { recursive: true });
    const temp = path.join(cacheDir, `${TEMP_PREFIX}deps-${key}-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(temp);
    try {
      // Only the set: none of the project's scripts, overrides or other fields reach npm.
      const manifest = { name: 'kiln-dependencies', private: true, dependencies: set.dependencies, devDependencies: set.devDependencies };
      await writeFile(path.join(temp, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      this.installsStarted += 1;
      await this.options.installer({ dir: temp, npmCache, timeoutMs: this.options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS });
      // An empty set installs nothing, and npm then makes no folder: the link still needs one.
      await mkdir(path.join(temp, 'node_modules'), { recursive: true });
      await linkViteTemp(path.join(temp, 'node_modules'));
      try {
        await rename(temp, depsDir);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // Another process finished first: its tree is as good as ours.
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !(await isDirectory(nodeModules))) throw e;
      }
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
    return nodeModules;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

export interface NpmInstallerOptions {
  /** PATH used to find npm (and node). */
  readonly commandPath: string;
  /**
   * The argument vector that runs `argv` isolated (bubblewrap), given the only folders it may write
   * and its working folder; without it npm runs as a plain process.
   */
  readonly isolate?: (argv: readonly string[], writable: readonly string[], cwd: string) => Promise<readonly string[]>;
}

/**
 * `npm install --ignore-scripts` in the request's folder: no lifecycle scripts (no code from the
 * packages runs), no audit or funding calls, npm's cache in the request's cache folder, an
 * environment of PATH, HOME, LANG and npm's proxy/registry/certificate settings only, its own
 * process group killed at the timeout. The error message ends with npm's last lines.
 */
export function npmInstaller(options: NpmInstallerOptions): NpmInstaller {
  return async ({ dir, npmCache, timeoutMs }) => {
    const env: NodeJS.ProcessEnv = { PATH: options.commandPath, HOME: homedir(), LANG: 'C.UTF-8' };
    for (const [name, value] of Object.entries(process.env)) if (NPM_ENV_PASSTHROUGH.test(name)) env[name] = value;
    const npm = [
      'npm', 'install',
      '--ignore-scripts',
      '--no-audit', '--no-fund', '--no-update-notifier',
      // No debug log files: they would pile up in the cache, which projects can read.
      '--logs-max=0',
      '--prefer-offline',
      '--cache', npmCache,
      '--prefix', dir,
    ]; // prettier-ignore
    const [file, ...args] = options.isolate === undefined ? npm : await options.isolate(npm, [dir, npmCache], dir);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(file as string, args, { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL_BYTES);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let timedOut = false;
      const killGroup = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup();
      }, timeoutMs);
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(new Error(`npm could not be started: ${e.message}`));
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        killGroup(); // nothing npm started outlives it
        if (code === 0 && !timedOut) return resolve();
        const how = timedOut ? `did not finish within ${Math.round(timeoutMs / 1000)} s` : `failed (${signal ?? `exit code ${code ?? '?'}`})`;
        const tail = npmOutputTail(output);
        reject(new Error(`npm install ${how}${tail === '' ? '' : `:\n${tail}`}`));
      });
    });
  };
}

/** npm's last lines, without the pointer to its log file (which lives in Kiln's cache, not the project). */
export function npmOutputTail(output: string): string {
  return output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !/A complete log of this run can be found in/i.test(line))
    .slice(-ERROR_LINES)
    .join('\n')
    .slice(-2000);
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() === true;
}

async function removeStaleTemps(cacheDir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(cacheDir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const entry = path.join(cacheDir, name);
    const info = await lstat(entry).catch(() => null);
    if (info !== null && now - info.mtimeMs > STALE_TEMP_MS) await rm(entry, { recursive: true, force: true });
  }
}

async function linkViteTemp(nodeModules: string): Promise<void> {
  const link = path.join(nodeModules, VITE_TEMP_LINK);
  if ((await lstat(link).catch(() => null)) !== null) return;
  await symlink(VITE_TEMP_TARGET, link, 'dir').catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'EEXIST') throw e; // another process linked it first
  });
}
