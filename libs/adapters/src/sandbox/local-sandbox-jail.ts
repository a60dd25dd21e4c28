import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { NPM_CACHE_DIR, type NpmInstallerOptions } from './dependency-cache.js';
import { installEgressForwarder, RegistryEgressProxy, throughEgressForwarder } from './egress/index.js';
import type { BubblewrapJail } from './isolation/bubblewrap-jail.js';
import type { CgroupLimits } from './isolation/cgroup-limits.js';
import { jailCommand, PRLIMIT_PATH } from './isolation/jail-command.js';
import type { SandboxLimits } from './isolation/sandbox-limits.js';

export interface LocalSandboxJailOptions {
  /** bubblewrap; null: processes run as they are (not isolated: start-up warns). */
  readonly jail: BubblewrapJail | null;
  /**
   * bubblewrap for npm installs where project processes run elsewhere (a container host: installs
   * into the shared cache still go through the registry-only egress proxy); default `jail`.
   */
  readonly installJail?: BubblewrapJail | null;
  readonly limits: SandboxLimits;
  readonly cgroups: Promise<CgroupLimits>;
  /** Kiln's runtime folder: the egress proxy's socket is in its `egress` folder. */
  readonly runtimeDir: string;
  /** The shared dependency cache (real path), read-only in project processes; undefined without one. */
  readonly dependencyCacheDir: () => Promise<string | undefined>;
}

/**
 * How a local sandbox's processes are confined (docs/security.md "Project sandboxes"): project
 * processes in the sandbox's cgroup, with its rlimits, in bubblewrap with no network; npm installs
 * in bubblewrap too, whose only way out is the registry egress proxy (one per host, started on the
 * first install).
 */
export class LocalSandboxJail {
  /** The registry-only way out for npm installs (started on the first install, one per host). */
  private egress: Promise<RegistryEgressProxy> | undefined;

  constructor(private readonly options: LocalSandboxJailOptions) {}

  /**
   * A project process's whole command line: in the sandbox's cgroup, with its rlimits, in
   * bubblewrap with the project writable and the dependency tree read-only. Without bubblewrap,
   * the argument vector as it is.
   */
  async command(sandboxId: string, projectDir: string, cwd: string, argv: readonly string[]): Promise<string[]> {
    if (this.options.jail === null) return [...argv];
    const cgroups = await this.options.cgroups;
    return jailCommand({
      limits: this.options.limits,
      cgroupProcs: await cgroups.join(sandboxId),
      prlimit: existsSync(PRLIMIT_PATH),
      bwrap: [this.options.jail.bwrapPath, ...(await this.isolationArgs({ writable: [projectDir], cwd, network: 'none', dependencyCache: true }))],
      argv,
    });
  }

  /**
   * npm installs' isolation (NpmInstallerOptions.isolate): bubblewrap in a network namespace of its
   * own whose only way out is the egress proxy, through the forwarder installed in `cacheDir`.
   * undefined without bubblewrap.
   */
  npmIsolation(cacheDir: () => Promise<string>): NpmInstallerOptions['isolate'] {
    const jail = this.options.installJail === undefined ? this.options.jail : this.options.installJail;
    return jail === null
      ? undefined
      : async (argv: readonly string[], writable: readonly string[], cwd: string) => {
          const proxy = await this.egressProxy();
          const forwarder = await installEgressForwarder(await cacheDir());
          return jailCommand({
            limits: this.options.limits,
            cgroupProcs: [],
            prlimit: existsSync(PRLIMIT_PATH),
            bwrap: [
              jail.bwrapPath,
              ...(await jail.args({ writable, readOnly: [path.dirname(proxy.socketPath), forwarder], cwd, network: 'egress' })),
            ],
            argv: throughEgressForwarder(argv, { forwarder, socketPath: proxy.socketPath }),
          });
        };
  }

  /** Stops the egress proxy, if one runs (host shutdown); the next install starts another. */
  async stopEgress(): Promise<void> {
    const egress = this.egress;
    this.egress = undefined;
    await egress?.then((proxy) => proxy.stop()).catch(() => undefined);
  }

  private egressProxy(): Promise<RegistryEgressProxy> {
    if (this.egress === undefined) {
      const attempt = (async () => {
        // One proxy per host instance: several may share a data folder (tests, a restart overlapping).
        const socketPath = path.join(this.options.runtimeDir, 'egress', `${process.pid}-${randomBytes(3).toString('hex')}.sock`);
        const proxy = new RegistryEgressProxy({ socketPath });
        await proxy.start();
        return proxy;
      })();
      this.egress = attempt;
      // A failed start is tried again by the next install.
      attempt.catch(() => {
        if (this.egress === attempt) this.egress = undefined;
      });
    }
    return this.egress;
  }

  /**
   * bubblewrap's arguments (BubblewrapJail): only `writable` writable; project processes get the
   * dependency cache read-only (npm's download cache inside it hidden), npm installs the network.
   */
  private async isolationArgs({
    writable,
    cwd,
    network,
    dependencyCache,
  }: {
    readonly writable: readonly string[];
    readonly cwd: string;
    readonly network: 'none';
    readonly dependencyCache: boolean;
  }): Promise<string[]> {
    if (this.options.jail === null) throw new Error('bubblewrap is not installed');
    const cacheDir = dependencyCache ? await this.options.dependencyCacheDir() : undefined;
    const npmCache = cacheDir === undefined ? undefined : path.join(cacheDir, NPM_CACHE_DIR);
    return this.options.jail.args({
      writable,
      readOnly: cacheDir === undefined ? [] : [cacheDir],
      // npm's own cache (downloads, metadata) is no project's business.
      hidden: npmCache !== undefined && existsSync(npmCache) ? [npmCache] : [],
      cwd,
      network,
    });
  }
}
