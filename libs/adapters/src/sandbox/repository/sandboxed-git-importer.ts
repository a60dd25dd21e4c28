import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type GitUrl, type ImportedRepository, RepositoryImportError, type RepositoryImporter } from '@kiln/domain';
import { spawnCapped } from '../command-runner.js';
import { installEgressForwarder, RegistryEgressProxy, throughEgressForwarder } from '../egress/index.js';
import type { BubblewrapJail } from '../isolation/bubblewrap-jail.js';
import { jailCommand, PRLIMIT_PATH } from '../isolation/jail-command.js';
import { formatBytes, type SandboxLimits } from '../isolation/sandbox-limits.js';

/** Largest repository an import takes: no file may pass it while fetching, nor all files together. */
export const DEFAULT_IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_IMPORT_TIMEOUT_MS = 120_000;
/** What an import never replaces in the project: installed packages and the database connection. */
export const KEPT_ON_IMPORT: readonly string[] = ['node_modules', '.env.local'];
/** A process killed by SIGXFSZ (RLIMIT_FSIZE reached): 128 + 25. */
const FILE_TOO_LARGE_EXIT = 153;

export interface SandboxedGitImporterOptions {
  /** The project's folder on the host (the sandbox host's; a missing sandbox rejects). */
  readonly projectDir: (sandboxId: string) => Promise<string>;
  /** bubblewrap: without it nothing is imported (the clone never runs on the host). */
  readonly jail: BubblewrapJail | null;
  readonly limits: SandboxLimits;
  /** Work folders and the egress proxies' sockets go here. */
  readonly runtimeDir: string;
  /** Where the egress forwarder is installed (a folder the jail can read). */
  readonly forwarderDir: string;
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
  readonly commandPath?: string;
  /** Test only: `http://127.0.0.1:<port>` origins (the local git server) the proxy may reach. */
  readonly testOrigins?: readonly string[];
}

/**
 * RepositoryImporter in bubblewrap (docs/decisions.md "Git import"). Two sandboxed steps:
 * 1. `git clone --depth 1` in a network namespace whose only way out is an egress proxy that
 *    reaches the repository's origin and nothing else (public addresses only, as for npm
 *    installs), into a work folder; no hooks (`core.hooksPath=/dev/null`, no template), links
 *    checked out as plain files, no other protocol; RLIMIT_FSIZE stops any file (the pack
 *    first) at the byte cap while it is fetched; a timeout stops the rest.
 * 2. With no network at all: the project's files are replaced by the clone's (its `.git` left
 *    behind; KEPT_ON_IMPORT kept), once the clone's files together are within the cap.
 */
export class SandboxedGitImporter implements RepositoryImporter {
  private readonly maxBytes: number;

  constructor(private readonly options: SandboxedGitImporterOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_IMPORT_MAX_BYTES;
  }

  async importRepository(sandboxId: string, url: GitUrl): Promise<ImportedRepository> {
    const jail = this.options.jail;
    if (jail === null) throw new RepositoryImportError('importing needs the sandbox (bubblewrap), which is not installed on this server');
    const projectDir = await this.options.projectDir(sandboxId);
    const work = path.join(this.options.runtimeDir, 'git-import', `${sandboxId}-${randomBytes(4).toString('hex')}`);
    await mkdir(work, { recursive: true });
    await chmod(work, 0o777); // the jail's user writes the clone here
    const proxy = new RegistryEgressProxy({
      socketPath: path.join(this.options.runtimeDir, 'egress', `git-${randomBytes(4).toString('hex')}.sock`),
      registry: url.origin,
      allowLoopback: this.options.testOrigins?.includes(url.origin) === true,
    });
    try {
      await proxy.start();
      await this.clone(jail, url, work, proxy.socketPath);
      const repo = path.join(work, 'repo');
      const { files, bytes } = await measure(repo);
      if (bytes > this.maxBytes) throw new RepositoryImportError(`the repository's files are larger than ${formatBytes(this.maxBytes)}`);
      await this.replaceProjectFiles(jail, repo, projectDir);
      return { files, bytes };
    } finally {
      await proxy.stop().catch(() => undefined);
      await rm(work, { recursive: true, force: true });
    }
  }

  private async clone(jail: BubblewrapJail, url: GitUrl, work: string, socketPath: string): Promise<void> {
    const forwarder = await installEgressForwarder(this.options.forwarderDir);
    const scheme = url.origin.startsWith('http:') ? 'http' : 'https';
    const git = [
      'git',
      ...['-c', 'core.hooksPath=/dev/null', '-c', 'core.symlinks=false', '-c', 'core.fsmonitor=false'],
      ...['-c', 'protocol.allow=never', '-c', `protocol.${scheme}.allow=always`, '-c', 'http.followRedirects=false'],
      ...['clone', '--depth=1', '--single-branch', '--no-tags', '--template=', '--quiet', '--', url.href, 'repo'],
    ];
    const bwrap = await jail.args({ writable: [work], readOnly: [path.dirname(socketPath), forwarder], cwd: work, network: 'egress' });
    const result = await this.run(jail, bwrap, throughEgressForwarder(git, { forwarder, socketPath }), work);
    if (result.timedOut) throw new RepositoryImportError(`the clone took longer than ${Math.round((this.options.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS) / 1000)} s`);
    if (result.exitCode === FILE_TOO_LARGE_EXIT) throw new RepositoryImportError(`the repository is larger than ${formatBytes(this.maxBytes)}`);
    if (result.exitCode !== 0) throw new RepositoryImportError(gitReason(result.stderr));
  }

  private async replaceProjectFiles(jail: BubblewrapJail, repo: string, projectDir: string): Promise<void> {
    const keep = KEPT_ON_IMPORT.map((name) => `! -name '${name}'`).join(' ');
    const script = `set -e; cd "$1"; find . -mindepth 1 -maxdepth 1 ${keep} -exec rm -rf {} +; cd "$2"; find . -mindepth 1 -maxdepth 1 ! -name .git ${keep} -exec cp -R -P {} "$1"/ \\;`;
    const bwrap = await jail.args({ writable: [projectDir], readOnly: [repo], cwd: projectDir, network: 'none' });
    const result = await this.run(jail, bwrap, ['/bin/sh', '-c', script, 'kiln-import', projectDir, repo], projectDir);
    if (result.exitCode !== 0) throw new Error(`Copying the imported files failed (${result.exitCode}): ${result.stderr.slice(-500)}`);
  }

  private async run(jail: BubblewrapJail, bwrap: readonly string[], argv: readonly string[], cwd: string) {
    const [file, ...args] = jailCommand({
      limits: { ...this.options.limits, diskBytes: this.maxBytes },
      cgroupProcs: [],
      prlimit: existsSync(PRLIMIT_PATH),
      bwrap: [jail.bwrapPath, ...bwrap],
      argv,
    });
    const env = { PATH: this.options.commandPath ?? '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    return spawnCapped(file as string, args, { cwd, env, timeoutMs: this.options.timeoutMs ?? DEFAULT_IMPORT_TIMEOUT_MS, outputCapBytes: 64 * 1024 });
  }
}

/** git's own reason, without paths or URLs of this server: its last `fatal:` line, trimmed. */
function gitReason(stderr: string): string {
  const fatal = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('fatal:') || line.startsWith('error:'))
    .at(-1);
  const text = (fatal ?? 'git could not clone the repository').replace(/^(fatal|error):\s*/, '');
  return text.replace(/\/[\w./-]*kiln[\w./-]*/g, '…').slice(0, 300);
}

/** Regular files under `dir` (links counted as nothing, never followed), and their bytes; `.git` left out. */
async function measure(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (folder === dir && entry.name === '.git') continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        files += 1;
        bytes += (await lstat(full)).size;
      }
    }
  };
  await walk(dir);
  return { files, bytes };
}
