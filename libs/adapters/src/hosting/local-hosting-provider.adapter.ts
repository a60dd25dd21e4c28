import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readlink, rename, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { HostingProvider, ReleaseBuild, SiteRoute } from '@kiln/domain';
import type { ReleaseBuildOutput } from '../sandbox/release-build.js';
import { RELEASE_BUILD_TIMEOUT_SECONDS } from '../sandbox/release-build.js';
import {
  HOSTS_DIR,
  isValidHostingId,
  isValidSiteHost,
  parsePointer,
  pointerTarget,
  RELEASE_IDS_DIR,
  RELEASES_DIR,
  removeReadOnlyTree,
  TEMP_PREFIX,
} from './hosting-paths.js';
import { copyReleaseOutput, DEFAULT_RELEASE_COPY_LIMITS, type ReleaseCopyLimits, ReleaseCopyRefused } from './release-copy.js';

/** What builds a project for a release: LocalSandboxHost.buildForRelease (its sandbox, its limits). */
export interface ReleaseBuilder {
  buildForRelease(sandboxId: string): Promise<ReleaseBuildOutput>;
}

export interface LocalHostingProviderOptions {
  /** DATA_DIR/hosting: releases/ and hosts/ live there. */
  readonly hostingRoot: string;
  readonly builder: ReleaseBuilder;
  readonly limits?: Partial<ReleaseCopyLimits>;
}

/**
 * HostingProvider on this machine (docs/hosting.md "Local hosting"): the project is built in its
 * sandbox (LocalSandboxHost.buildForRelease), its output copied hostilely (release-copy.ts) into
 * a temporary folder, then renamed to `releases/<projectId>/<releaseId>` read-only. A host serves
 * a release through the symbolic link `hosts/<host>`, made under a temporary name and renamed
 * over the old one: rename(2) is atomic, so a reader finds the old release or the new one.
 * StaticSiteServer serves what the links point at.
 */
export class LocalHostingProvider implements HostingProvider {
  private readonly root: string;
  private readonly limits: ReleaseCopyLimits;

  constructor(private readonly options: LocalHostingProviderOptions) {
    this.root = path.resolve(options.hostingRoot);
    this.limits = { ...DEFAULT_RELEASE_COPY_LIMITS, ...options.limits };
  }

  get hostsDir(): string {
    return path.join(this.root, HOSTS_DIR);
  }

  /** The folder of a release (whether it exists or not). */
  releaseDir(projectId: string, releaseId: string): string {
    checkId(projectId);
    checkId(releaseId);
    return path.join(this.root, RELEASES_DIR, projectId, releaseId);
  }

  async buildRelease(input: { sandboxId: string; projectId: string; releaseId: string }): Promise<ReleaseBuild> {
    const target = this.releaseDir(input.projectId, input.releaseId);
    if (await exists(target)) throw new Error(`Release ${input.releaseId} already exists`);
    const out = await this.options.builder.buildForRelease(input.sandboxId);
    if (out.timedOut) return { kind: 'failed', log: appendLine(out.log, `The build did not finish within ${RELEASE_BUILD_TIMEOUT_SECONDS} s.`) };
    if (out.exitCode !== 0) return { kind: 'failed', log: out.log.trim() === '' ? `The build failed (exit code ${out.exitCode}).` : out.log };

    await mkdir(path.dirname(target), { recursive: true, mode: 0o755 });
    const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${input.releaseId}-${randomBytes(4).toString('hex')}`);
    try {
      const copy = await copyReleaseOutput(out.projectDir, out.outputDir, temp, this.limits);
      const index = await lstat(path.join(temp, 'index.html')).catch(() => null);
      if (index === null || !index.isFile()) {
        await removeReadOnlyTree(temp);
        return { kind: 'failed', log: appendLine(out.log, 'The build produced no index.html: there is no page to publish.') };
      }
      // The id's entry first: once the folder is in place the release can be activated.
      await this.remember(input.releaseId, input.projectId);
      await rename(temp, target);
      const skipped =
        copy.skipped.length === 0
          ? ''
          : `Not published (links and special files never are): ${copy.skipped.slice(0, 20).join(', ')}${copy.skipped.length > 20 ? ', …' : ''}`;
      return { kind: 'built', sizeBytes: copy.sizeBytes, fileCount: copy.fileCount, log: skipped === '' ? out.log : appendLine(out.log, skipped) };
    } catch (e) {
      await removeReadOnlyTree(temp);
      if (e instanceof ReleaseCopyRefused) return { kind: 'failed', log: appendLine(out.log, e.message) };
      throw e;
    }
  }

  async activate(route: SiteRoute): Promise<void> {
    // Everything is checked before any host changes.
    const hosts = route.hosts.map(checkHost);
    const projectId = await this.projectOf(route.releaseId);
    const info = projectId === null ? null : await lstat(this.releaseDir(projectId, route.releaseId)).catch(() => null);
    if (projectId === null || info === null || !info.isDirectory()) throw new Error(`No release ${route.releaseId}`);
    await mkdir(this.hostsDir, { recursive: true, mode: 0o755 });
    const target = pointerTarget(projectId, route.releaseId);
    for (const host of hosts) {
      const temp = path.join(this.hostsDir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
      await symlink(target, temp);
      try {
        await rename(temp, path.join(this.hostsDir, host));
      } catch (e) {
        await unlink(temp).catch(() => undefined);
        throw e;
      }
    }
  }

  async deactivate(hosts: readonly string[]): Promise<void> {
    for (const host of hosts.map(checkHost)) {
      await unlink(path.join(this.hostsDir, host)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    }
  }

  async discardReleases(projectId: string): Promise<void> {
    checkId(projectId);
    // Hosts still pointing at them stop answering first.
    for (const name of await readdir(this.hostsDir).catch(() => [] as string[])) {
      const target = await readlink(path.join(this.hostsDir, name)).catch(() => null);
      if (target !== null && parsePointer(target)?.projectId === projectId) await unlink(path.join(this.hostsDir, name)).catch(() => undefined);
    }
    const releases = path.join(this.root, RELEASES_DIR, projectId);
    for (const releaseId of await readdir(releases).catch(() => [] as string[])) {
      if (isValidHostingId(releaseId)) await unlink(path.join(this.root, RELEASE_IDS_DIR, releaseId)).catch(() => undefined);
    }
    await removeReadOnlyTree(releases);
  }

  /**
   * A route names its release, not its project: `release-ids/<releaseId>` is a link whose text is
   * the project's id (written when the release is stored), so activation needs no search.
   */
  private async projectOf(releaseId: string): Promise<string | null> {
    checkId(releaseId);
    const projectId = await readlink(path.join(this.root, RELEASE_IDS_DIR, releaseId)).catch(() => null);
    return projectId !== null && isValidHostingId(projectId) ? projectId : null;
  }

  private async remember(releaseId: string, projectId: string): Promise<void> {
    const dir = path.join(this.root, RELEASE_IDS_DIR);
    await mkdir(dir, { recursive: true, mode: 0o755 });
    const temp = path.join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
    await symlink(projectId, temp);
    await rename(temp, path.join(dir, releaseId));
  }

  /** The release a host serves now, or null (tests, diagnostics). */
  async served(host: string): Promise<string | null> {
    const target = await readlink(path.join(this.hostsDir, checkHost(host))).catch(() => null);
    return target === null ? null : (parsePointer(target)?.releaseId ?? null);
  }
}

function checkHost(host: string): string {
  const lower = typeof host === 'string' ? host.toLowerCase() : '';
  if (!isValidSiteHost(lower)) throw new Error(`Not a host name Kiln serves: ${JSON.stringify(host)}`);
  return lower;
}

function checkId(id: string): void {
  if (!isValidHostingId(id)) throw new Error(`Not a valid id: ${JSON.stringify(id)}`);
}

async function exists(p: string): Promise<boolean> {
  return (await lstat(p).catch(() => null)) !== null;
}

function appendLine(log: string, line: string): string {
  return log.trim() === '' ? line : `${log.replace(/\s+$/, '')}\n${line}`;
}
