import type { CustomDomain } from './custom-domain.entity.js';
import type { PublishedSite } from './published-site.entity.js';
import type { Release } from './release.entity.js';

/** A site as a list of sites shows it: the site and when its screenshot was taken (null: none). */
export interface SiteWithScreenshot {
  readonly site: PublishedSite;
  readonly screenshotTakenAt: Date | null;
}

/** Where sites, releases, custom domains and screenshots are kept (tables published_sites, releases, custom_domains, site_screenshots). */
export interface HostingRepository {
  findSite(projectId: string): Promise<PublishedSite | null>;
  findSiteBySlug(slug: string): Promise<PublishedSite | null>;
  /** The sites of these projects with their screenshots' times, in one read; projects without a site are left out (order unspecified). */
  listSites(projectIds: readonly string[]): Promise<readonly SiteWithScreenshot[]>;
  /**
   * Inserts or replaces a project's site. Rejects with SlugTaken's code ('HOSTING.SLUG_TAKEN'
   * as the error's `code`) when another project holds the slug — a unique index is the final
   * guarantee, so two concurrent claims cannot both win.
   */
  saveSite(site: PublishedSite): Promise<void>;

  /** Adds a release; rejects when the project already has one with that number (two concurrent publishes cannot both take it). */
  addRelease(release: Release): Promise<void>;
  findRelease(projectId: string, releaseId: string): Promise<Release | null>;
  /** The project's releases, newest first. */
  listReleases(projectId: string): Promise<readonly Release[]>;

  /** Adds a custom domain; rejects with code 'HOSTING.DOMAIN_TAKEN' when any project already has the host. */
  addDomain(domain: CustomDomain): Promise<void>;
  saveDomain(domain: CustomDomain): Promise<void>;
  removeDomain(id: string): Promise<void>;
  findDomainByHost(host: string): Promise<CustomDomain | null>;
  listDomains(projectId: string): Promise<readonly CustomDomain[]>;

  saveScreenshot(projectId: string, png: Uint8Array, takenAt: Date): Promise<void>;
  findScreenshot(projectId: string): Promise<{ readonly png: Uint8Array; readonly takenAt: Date } | null>;
}
