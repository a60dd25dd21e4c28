import type { CertificateAuthority, CertificateOutcome } from '../hosting/certificate-authority.port.js';
import { type DnsResolver, DnsUnavailable } from '../hosting/dns-resolver.port.js';
import type { HostingProvider, ReleaseBuild, SiteRoute } from '../hosting/hosting-provider.port.js';
import type { SiteScreenshotter } from '../hosting/site-screenshotter.port.js';

/** A host name as the local provider takes it: lower-case LDH labels (punycode for IDN), nothing that is a path. */
const SITE_HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

function siteHost(host: string): string {
  const lower = host.toLowerCase();
  if (!SITE_HOST.test(lower)) throw new Error(`Not a host name Kiln serves: ${JSON.stringify(host)}`);
  return lower;
}

/**
 * The hosting provider in memory: a "build" succeeds unless the test says it fails (buildFails for
 * every build, failBuildsOf for one sandbox's), releases are remembered by id, and `served(host)`
 * tells which release a host serves. Host names are checked as the local provider checks them.
 */
export class InMemoryHostingProvider implements HostingProvider {
  private readonly releases = new Map<string, { projectId: string; sizeBytes: number; fileCount: number }>();
  private readonly routes = new Map<string, string>();
  private readonly failingSandboxes = new Map<string, string>();
  /** Set to a log to make the next builds fail with it. */
  buildFails: string | null = null;
  readonly builds: { sandboxId: string; projectId: string; releaseId: string }[] = [];

  /** Builds of this sandbox fail with `log` (its code has errors). */
  failBuildsOf(sandboxId: string, log: string): void {
    this.failingSandboxes.set(sandboxId, log);
  }

  async buildRelease(input: { sandboxId: string; projectId: string; releaseId: string }): Promise<ReleaseBuild> {
    this.builds.push({ ...input });
    if (this.buildFails !== null) return { kind: 'failed', log: this.buildFails };
    const failing = this.failingSandboxes.get(input.sandboxId);
    if (failing !== undefined) return { kind: 'failed', log: failing };
    if (this.releases.has(input.releaseId)) throw new Error(`Release ${input.releaseId} already exists`);
    const release = { projectId: input.projectId, sizeBytes: 1024, fileCount: 3 };
    this.releases.set(input.releaseId, release);
    return { kind: 'built', sizeBytes: release.sizeBytes, fileCount: release.fileCount, log: 'vite build: 3 files' };
  }

  async activate(route: SiteRoute): Promise<void> {
    const hosts = route.hosts.map(siteHost); // all checked before any changes
    if (!this.releases.has(route.releaseId)) throw new Error(`No release ${route.releaseId}`);
    for (const host of hosts) this.routes.set(host, route.releaseId);
  }

  async deactivate(hosts: readonly string[]): Promise<void> {
    for (const host of hosts.map(siteHost)) this.routes.delete(host);
  }

  async discardReleases(projectId: string): Promise<void> {
    for (const [id, release] of this.releases) if (release.projectId === projectId) this.releases.delete(id);
    for (const [host, id] of this.routes) if (!this.releases.has(id)) this.routes.delete(host);
  }

  /** The release a host serves, or null. */
  served(host: string): string | null {
    return this.routes.get(host.toLowerCase()) ?? null;
  }

  hasRelease(releaseId: string): boolean {
    return this.releases.has(releaseId);
  }
}

/** DNS in memory: records set by the test; `unavailable` makes every lookup reject as a dead resolver would. */
export class InMemoryDnsResolver implements DnsResolver {
  private readonly txt = new Map<string, string[]>();
  private readonly cname = new Map<string, string[]>();
  private readonly addresses = new Map<string, string[]>();
  unavailable = false;

  setTxt(name: string, ...values: string[]): void {
    this.txt.set(key(name), values);
  }
  setCname(name: string, target: string): void {
    this.cname.set(key(name), [key(target)]);
  }
  setAddresses(name: string, ...values: string[]): void {
    this.addresses.set(key(name), values);
  }
  clear(name: string): void {
    for (const map of [this.txt, this.cname, this.addresses]) map.delete(key(name));
  }

  async resolveTxt(name: string): Promise<readonly string[]> {
    return this.lookup(this.txt, name);
  }
  async resolveCname(name: string): Promise<readonly string[]> {
    return this.lookup(this.cname, name);
  }
  async resolveAddresses(name: string): Promise<readonly string[]> {
    return this.lookup(this.addresses, name);
  }

  private lookup(map: Map<string, string[]>, name: string): readonly string[] {
    if (this.unavailable) throw new DnsUnavailable('no DNS server answered');
    return [...(map.get(key(name)) ?? [])];
  }
}

const key = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/** A certificate authority that issues for every host unless the test says otherwise. */
export class InMemoryCertificateAuthority implements CertificateAuthority {
  outcome: CertificateOutcome = { kind: 'issued' };
  readonly requested: string[] = [];

  async requestCertificate(host: string): Promise<CertificateOutcome> {
    this.requested.push(host);
    return this.outcome;
  }
}

/** The 8-byte PNG signature followed by a marker: enough to tell a stored screenshot from none. */
export const FAKE_PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x4b, 0x49, 0x4c, 0x4e]);

/** A screenshotter that "captures" FAKE_PNG, or rejects when `fails` is set. */
export class InMemorySiteScreenshotter implements SiteScreenshotter {
  readonly captured: string[] = [];
  fails = false;

  async capture(url: string): Promise<Uint8Array> {
    this.captured.push(url);
    if (this.fails) throw new Error(`Could not load ${url}`);
    return FAKE_PNG;
  }
}
