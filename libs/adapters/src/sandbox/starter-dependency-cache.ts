import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** The Kiln-owned script that starts Vite inside a sandbox (dev server and build). */
export const VITE_LAUNCHER_RELATIVE_PATH = 'libs/adapters/src/sandbox/runtime/vite-launcher.mjs';

/** Installing the starter's dependencies once may take a while on a cold npm cache. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;
/** Half-finished installs (a process killed mid-way) older than this are removed. */
const STALE_TEMP_MS = 60 * 60_000;
const TEMP_PREFIX = '.tmp-';

/** Host variables npm may need to reach its registry; nothing else of the API's environment. */
const NPM_ENV_PASSTHROUGH = /^(npm_config_.*|NPM_CONFIG_.*|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/;

export interface PreparedStarter {
  /** The cache folder, real path (bound read-only inside bubblewrap). */
  readonly cacheDir: string;
  /** Hash of the starter's package.json: one installed tree per version of the template. */
  readonly key: string;
  /** `<cacheDir>/deps-<key>/node_modules`, the target of every new sandbox's node_modules link. */
  readonly nodeModules: string;
  /** The launcher script, copied into the cache so commands inside bubblewrap can run it. */
  readonly launcher: string;
}

export interface StarterDependencyCacheOptions {
  readonly cacheDir: string;
  readonly templateDir: string;
  readonly launcherFile: string;
  /** PATH used to find npm (and node). */
  readonly commandPath: string;
}

/**
 * The starter template's dependencies, installed once per template version into
 * `<cacheDir>/deps-<hash of package.json>/node_modules` and shared (through a symlink) by every
 * sandbox made from it. Installs go into a fresh temporary folder that is renamed into place, so
 * concurrent callers — in this process or in others — never see half a tree; the first rename
 * wins and the others throw their copy away. Installed trees are never removed: existing
 * sandboxes link to them.
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
  async realCacheDir(): Promise<string> {
    await mkdir(this.options.cacheDir, { recursive: true });
    return realpath(this.options.cacheDir);
  }

  private async prepareOnce(): Promise<PreparedStarter> {
    const cacheDir = await this.realCacheDir();
    const manifest = await readFile(path.join(this.options.templateDir, 'package.json'));
    const key = shortHash(manifest);
    const depsDir = path.join(cacheDir, `deps-${key}`);
    const nodeModules = path.join(depsDir, 'node_modules');
    await removeStaleTemps(cacheDir);
    if (!(await isDirectory(nodeModules))) await this.install(cacheDir, depsDir, key);
    const launcher = await this.installLauncher(cacheDir);
    return { cacheDir, key, nodeModules, launcher };
  }

  private async install(cacheDir: string, depsDir: string, key: string): Promise<void> {
    const temp = path.join(cacheDir, `${TEMP_PREFIX}deps-${key}-${process.pid}-${randomBytes(4).toString('hex')}`);
    await mkdir(temp);
    try {
      await copyFile(path.join(this.options.templateDir, 'package.json'), path.join(temp, 'package.json'));
      const lock = path.join(this.options.templateDir, 'package-lock.json');
      if (await isFile(lock)) await copyFile(lock, path.join(temp, 'package-lock.json'));
      await this.npmInstall(temp);
      try {
        await rename(temp, depsDir);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // Another process finished first: its tree is as good as ours.
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || !(await isDirectory(path.join(depsDir, 'node_modules')))) throw e;
      }
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }

  /**
   * Outside bubblewrap (it needs the registry), so: no install scripts (the starter's packages
   * need none) and none of the API's secrets in the environment.
   */
  private npmInstall(dir: string): Promise<void> {
    const env: NodeJS.ProcessEnv = { PATH: this.options.commandPath, HOME: homedir(), LANG: 'C.UTF-8' };
    for (const [name, value] of Object.entries(process.env)) if (NPM_ENV_PASSTHROUGH.test(name)) env[name] = value;
    const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir];
    return new Promise((resolve, reject) => {
      execFile('npm', args, { cwd: dir, env, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) reject(new Error(`Installing the starter's dependencies failed: ${(stderr || stdout || error.message).trim().slice(-2000)}`));
        else resolve();
      });
    });
  }

  /** Content-addressed, so versions side by side never overwrite one another. */
  private async installLauncher(cacheDir: string): Promise<string> {
    const source = await readFile(this.options.launcherFile);
    const dir = path.join(cacheDir, 'runtime');
    const target = path.join(dir, `vite-launcher-${shortHash(source)}.mjs`);
    if (await isFile(target)) return target;
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}.mjs`);
    await writeFile(temp, source);
    await rename(temp, target);
    return target;
  }
}

function shortHash(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 16);
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isDirectory() === true;
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null))?.isFile() === true;
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
