import type { ProjectRepository } from '../../projects/project-repository.port.js';
import { TLS_ALLOWED_STATUSES } from '../custom-domain-lifecycle.js';
import { parseDomainName } from '../domain-name.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { PublishedSite } from '../published-site.entity.js';
import type { PublishedUrls } from '../published-urls.js';
import { parseSiteSlug } from '../site-slug.js';

/** A live site of an active project, by slug; null for anything else (an invalid slug included). */
async function liveSite(hosting: HostingRepository, projects: ProjectRepository, slug: string): Promise<PublishedSite | null> {
  const parsed = parseSiteSlug(slug);
  if (!parsed.ok || parsed.value !== slug) return null;
  const site = await hosting.findSiteBySlug(slug);
  if (!site || site.status !== 'live' || site.currentReleaseId === null) return null;
  const project = await projects.findById(site.projectId);
  return project && project.status === 'active' ? site : null;
}

/**
 * The TLS edge's question (Caddy's on-demand `ask`): may a certificate be issued for this host?
 * Yes for the Kiln subdomain of a live site, and for a custom domain that is verified,
 * certificate_issued or active, of a live site. Anything else, malformed names included, is no.
 */
export class IsTlsAllowed {
  constructor(
    private readonly hosting: HostingRepository,
    private readonly projects: ProjectRepository,
    private readonly urls: PublishedUrls,
  ) {}

  async execute(domain: string): Promise<boolean> {
    // Kiln's own hosts may sit under names a custom domain never could (`*.apps.localhost`).
    const slug = domain.length <= 300 ? this.urls.slugOf(domain.trim().toLowerCase().replace(/\.$/, '')) : null;
    if (slug !== null) return (await liveSite(this.hosting, this.projects, slug)) !== null;
    const host = parseDomainName(domain);
    if (!host.ok) return false;
    const custom = await this.hosting.findDomainByHost(host.value);
    if (!custom || !TLS_ALLOWED_STATUSES.has(custom.status)) return false;
    const site = await this.hosting.findSite(custom.projectId);
    return site !== null && (await liveSite(this.hosting, this.projects, site.slug)) !== null;
  }
}

export interface PublicSite {
  readonly name: string;
  readonly slug: string;
  readonly url: string;
  readonly publishedAt: Date | null;
  readonly screenshotTakenAt: Date | null;
}

/** What /project-preview/{slug} shows of a live site, for anyone: its name, URL and screenshot. Null when there is no such live site. */
export class GetPublicSite {
  constructor(
    private readonly hosting: HostingRepository,
    private readonly projects: ProjectRepository,
    private readonly urls: PublishedUrls,
  ) {}

  async execute(slug: string): Promise<PublicSite | null> {
    const site = await liveSite(this.hosting, this.projects, slug);
    if (!site) return null;
    const [project, screenshot] = await Promise.all([this.projects.findById(site.projectId), this.hosting.findScreenshot(site.projectId)]);
    return {
      name: project?.name ?? site.slug,
      slug: site.slug,
      url: this.urls.urlFor(this.urls.hostFor(site.slug)),
      publishedAt: site.publishedAt,
      screenshotTakenAt: screenshot?.takenAt ?? null,
    };
  }
}

/** The stored screenshot of a live site, for anyone; null otherwise. */
export class GetPublicSiteScreenshot {
  constructor(
    private readonly hosting: HostingRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async execute(slug: string): Promise<{ png: Uint8Array; takenAt: Date } | null> {
    const site = await liveSite(this.hosting, this.projects, slug);
    return site ? this.hosting.findScreenshot(site.projectId) : null;
  }
}
