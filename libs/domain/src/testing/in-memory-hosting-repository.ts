import type { CustomDomain } from '../hosting/custom-domain.entity.js';
import type { HostingRepository, SiteWithScreenshot } from '../hosting/hosting-repository.port.js';
import type { PublishedSite } from '../hosting/published-site.entity.js';
import type { PublishedUrls } from '../hosting/published-urls.js';
import type { Release } from '../hosting/release.entity.js';
import type { Pause } from './in-memory-credit-ledger.js';

/** A rejection carrying a domain error code, as the PostgreSQL adapter's unique indexes give. */
export class HostingConflict extends Error {
  constructor(
    readonly code: 'HOSTING.SLUG_TAKEN' | 'HOSTING.DOMAIN_TAKEN' | 'HOSTING.RELEASE_NUMBER_TAKEN',
    message: string,
  ) {
    super(message);
    this.name = 'HostingConflict';
  }
}

/** Sites, releases, domains and screenshots in maps; every check and write is one synchronous step after the pause. */
export class InMemoryHostingRepository implements HostingRepository {
  private readonly sites = new Map<string, PublishedSite>();
  private readonly releases = new Map<string, Release>();
  private readonly domains = new Map<string, CustomDomain>();
  private readonly screenshots = new Map<string, { png: Uint8Array; takenAt: Date }>();

  constructor(private readonly pause: Pause = () => Promise.resolve()) {}

  async findSite(projectId: string): Promise<PublishedSite | null> {
    await this.pause();
    return this.sites.get(projectId) ?? null;
  }

  async findSiteBySlug(slug: string): Promise<PublishedSite | null> {
    await this.pause();
    return [...this.sites.values()].find((s) => s.slug === slug) ?? null;
  }

  async listSites(projectIds: readonly string[]): Promise<readonly SiteWithScreenshot[]> {
    await this.pause();
    return [...new Set(projectIds)].flatMap((id) => {
      const site = this.sites.get(id);
      return site ? [{ site, screenshotTakenAt: this.screenshots.get(id)?.takenAt ?? null }] : [];
    });
  }

  async saveSite(site: PublishedSite): Promise<void> {
    await this.pause();
    const holder = [...this.sites.values()].find((s) => s.slug === site.slug && s.projectId !== site.projectId);
    if (holder) throw new HostingConflict('HOSTING.SLUG_TAKEN', `Slug ${site.slug} is taken`);
    this.sites.set(site.projectId, { ...site });
  }

  async addRelease(release: Release): Promise<void> {
    await this.pause();
    if (this.releases.has(release.id)) throw new Error(`Release ${release.id} already exists`);
    if ([...this.releases.values()].some((r) => r.projectId === release.projectId && r.number === release.number)) {
      throw new HostingConflict('HOSTING.RELEASE_NUMBER_TAKEN', `Release number ${release.number} is taken`);
    }
    this.releases.set(release.id, { ...release });
  }

  async findRelease(projectId: string, releaseId: string): Promise<Release | null> {
    await this.pause();
    const release = this.releases.get(releaseId);
    return release && release.projectId === projectId ? release : null;
  }

  async listReleases(projectId: string): Promise<readonly Release[]> {
    await this.pause();
    return [...this.releases.values()].filter((r) => r.projectId === projectId).sort((a, b) => b.number - a.number);
  }

  async addDomain(domain: CustomDomain): Promise<void> {
    await this.pause();
    if ([...this.domains.values()].some((d) => d.host === domain.host)) throw new HostingConflict('HOSTING.DOMAIN_TAKEN', `${domain.host} is taken`);
    if (this.domains.has(domain.id)) throw new Error(`Domain ${domain.id} already exists`);
    this.domains.set(domain.id, { ...domain });
  }

  async saveDomain(domain: CustomDomain): Promise<void> {
    await this.pause();
    // Only an existing row is replaced, and its host never changes.
    const stored = this.domains.get(domain.id);
    if (!stored) throw new Error(`Record with id ${domain.id} not found`);
    this.domains.set(domain.id, { ...domain, host: stored.host, projectId: stored.projectId });
  }

  async removeDomain(id: string): Promise<void> {
    await this.pause();
    this.domains.delete(id);
  }

  async findDomainByHost(host: string): Promise<CustomDomain | null> {
    await this.pause();
    return [...this.domains.values()].find((d) => d.host === host) ?? null;
  }

  async listDomains(projectId: string): Promise<readonly CustomDomain[]> {
    await this.pause();
    return [...this.domains.values()].filter((d) => d.projectId === projectId).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
  }

  async saveScreenshot(projectId: string, png: Uint8Array, takenAt: Date): Promise<void> {
    await this.pause();
    this.screenshots.set(projectId, { png: png.slice(), takenAt });
  }

  async findScreenshot(projectId: string): Promise<{ readonly png: Uint8Array; readonly takenAt: Date } | null> {
    await this.pause();
    const shot = this.screenshots.get(projectId);
    return shot ? { png: shot.png.slice(), takenAt: shot.takenAt } : null;
  }
}

/**
 * PublishedUrls for domain tests: sites at `http://{slug}.apps.kiln.test`, Kiln's own hosts
 * `kiln.test` and everything under it, a CNAME target `apps.kiln.test`, addresses 203.0.113.7
 * and 2001:db8::7. (The API builds the real one from PUBLISHED_URL_TEMPLATE.)
 */
export class TestPublishedUrls implements PublishedUrls {
  readonly target = { cname: 'apps.kiln.test', addresses: ['203.0.113.7', '2001:db8::7'] };
  hostFor(slug: string): string {
    return `${slug}.apps.kiln.test`;
  }
  urlFor(host: string): string {
    return `http://${host}`;
  }
  slugOf(host: string): string | null {
    const m = /^([a-z0-9-]+)\.apps\.kiln\.test$/.exec(host.toLowerCase());
    return m ? (m[1] as string) : null;
  }
  isKilnHost(host: string): boolean {
    const h = host.toLowerCase();
    return h === 'kiln.test' || h.endsWith('.kiln.test');
  }
}
