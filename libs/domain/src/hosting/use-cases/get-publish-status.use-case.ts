import type { OwnedProjects } from '../../projects/owned-projects.js';
import type { ProjectNotFound } from '../../projects/project.errors.js';
import { type Result, ok } from '../../shared/result.js';
import type { CustomDomain, DnsRecordToCreate } from '../custom-domain.entity.js';
import { dnsRecordsFor } from '../custom-domain-lifecycle.js';
import type { HostingRepository } from '../hosting-repository.port.js';
import type { PublishedUrls } from '../published-urls.js';
import type { Release } from '../release.entity.js';

export interface DomainStatus {
  readonly domain: CustomDomain;
  /** Where the site answers on this domain (once active). */
  readonly url: string;
  readonly records: readonly DnsRecordToCreate[];
}

export interface PublishStatus {
  readonly projectId: string;
  readonly status: 'live' | 'unpublished' | 'never_published';
  /** The site's slug, kept while unpublished; null before the first publish. */
  readonly slug: string | null;
  /** The Kiln URL while live. */
  readonly url: string | null;
  readonly currentRelease: Release | null;
  /** Newest first. */
  readonly releases: readonly Release[];
  readonly domains: readonly DomainStatus[];
  /** When the stored screenshot was taken; null when there is none. */
  readonly screenshotTakenAt: Date | null;
}

/** A custom domain as the dialog shows it: with its URL and the records to create. */
export const domainStatusOf = (domain: CustomDomain, urls: PublishedUrls): DomainStatus => ({
  domain,
  url: urls.urlFor(domain.host),
  records: dnsRecordsFor(domain, urls.target),
});

/** A project's site as the publish dialog shows it: status, URL, releases, domains and their records. */
export class GetPublishStatus {
  constructor(
    private readonly owned: OwnedProjects,
    private readonly hosting: HostingRepository,
    private readonly urls: PublishedUrls,
  ) {}

  async execute(input: { userId: string; projectId: string }): Promise<Result<PublishStatus, ProjectNotFound>> {
    const found = await this.owned.find(input.userId, input.projectId);
    if (!found.ok) return found;
    const [site, releases, domains, screenshot] = await Promise.all([
      this.hosting.findSite(input.projectId),
      this.hosting.listReleases(input.projectId),
      this.hosting.listDomains(input.projectId),
      this.hosting.findScreenshot(input.projectId),
    ]);
    const live = site?.status === 'live';
    return ok({
      projectId: input.projectId,
      status: site === null || site.currentReleaseId === null ? 'never_published' : site.status,
      slug: site?.slug ?? null,
      url: live && site ? this.urls.urlFor(this.urls.hostFor(site.slug)) : null,
      currentRelease: releases.find((r) => r.id === site?.currentReleaseId) ?? null,
      releases,
      domains: domains.map((domain) => domainStatusOf(domain, this.urls)),
      screenshotTakenAt: screenshot?.takenAt ?? null,
    });
  }
}
