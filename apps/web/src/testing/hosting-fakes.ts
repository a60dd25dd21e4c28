// Test doubles of the hosting API and the upgrade dialog (tests only; production never imports this).
import { ApiError } from '../app/ports';
import { ScriptedCalls } from './scripted-calls';
import type {
  AddedDomainDto,
  DnsCheckDto,
  DomainDto,
  HostingApi,
  PublicSiteDto,
  PublishCheckDto,
  ReleaseDto,
  ScreenshotDto,
  SiteStatusDto,
  SiteSummaryDto,
} from '../api/hosting.api';
import { type LimitType, limitTypeOf } from '../features/billing/upgrade-dialog.store';

export const NOW = Date.parse('2026-01-10T12:00:00.000Z');

export function release(number: number, overrides: Partial<ReleaseDto> = {}): ReleaseDto {
  return {
    id: `r${number}`,
    number,
    commit: `${number}`.repeat(7) + 'abcdef0123456789',
    size_bytes: 150 * 1024 + number,
    file_count: 4,
    created_at: new Date(NOW - (10 - number) * 60_000).toISOString(),
    ...overrides,
  };
}

export function liveSite(overrides: Partial<SiteStatusDto> = {}): SiteStatusDto {
  const releases = [release(2), release(1)];
  return {
    project_id: 'p1',
    status: 'live',
    slug: 'chores',
    published_url: 'http://chores.apps.localhost:3000',
    region: 'sin',
    current_release: releases[0] ?? null,
    releases,
    domains: [],
    screenshot_url: null,
    ...overrides,
  };
}

export const NEVER_PUBLISHED: SiteStatusDto = {
  project_id: 'p1',
  status: 'never_published',
  slug: null,
  published_url: null,
  region: 'sin',
  current_release: null,
  releases: [],
  domains: [],
  screenshot_url: null,
};

export function pendingDomain(domain = 'www.shop.com', overrides: Partial<DomainDto> = {}): DomainDto {
  return {
    id: `d-${domain}`,
    domain,
    status: 'pending',
    failure_reason: null,
    url: null,
    records: [
      { type: 'TXT', name: `_kiln-challenge.${domain}`, value: 'kiln-verify=tok123' },
      { type: 'CNAME', name: domain, value: 'edge.apps.kiln.test' },
    ],
    created_at: new Date(NOW).toISOString(),
    ...overrides,
  };
}

export const paymentRequired = (code = 'PUBLISHING.NOT_INCLUDED') =>
  new ApiError("Your Free plan doesn't include domain connections. Please upgrade to connect a custom domain.", 402, code, { code, limit_type: 'published' });

type Method = keyof HostingApi;

/**
 * Answers from fields tests set; a failure queued with `fail(method, error)` is thrown once.
 * `hold(method)` keeps the next call pending until `release(method)`, to observe states in between.
 */
export class FakeHostingApi extends ScriptedCalls<Method> implements HostingApi {
  site: SiteStatusDto = NEVER_PUBLISHED;
  publishedSite: SiteStatusDto = liveSite({ releases: [release(1)], current_release: release(1) });
  publicSiteReply: PublicSiteDto = {
    name: 'Chores',
    slug: 'chores',
    url: 'http://chores.apps.localhost:3000',
    published_at: new Date(NOW - 2 * 3600_000).toISOString(),
    screenshot_url: '/api/hosting/sites/chores/screenshot.png',
  };
  /** What GET /api/fly/sites answers. */
  sitesReply: SiteSummaryDto[] = [];
  dnsReply: ((domain: DomainDto) => DnsCheckDto) | null = null;

  async publishCheck(projectId: string): Promise<PublishCheckDto> {
    await this.step('publishCheck', `publishCheck ${projectId}`);
    return { allowed: true, limit: 'unlimited' };
  }

  async status(projectId: string): Promise<SiteStatusDto> {
    await this.step('status', `status ${projectId}`);
    return this.site;
  }

  async sites(): Promise<SiteSummaryDto[]> {
    await this.step('sites', 'sites');
    return [...this.sitesReply];
  }

  async publish(projectId: string): Promise<SiteStatusDto> {
    await this.step('publish', `publish ${projectId}`);
    this.site = this.publishedSite;
    return this.site;
  }

  async unpublish(projectId: string): Promise<SiteStatusDto> {
    await this.step('unpublish', `unpublish ${projectId}`);
    this.site = { ...this.site, status: 'unpublished' };
    return this.site;
  }

  async rollback(projectId: string, releaseId: string): Promise<SiteStatusDto> {
    await this.step('rollback', `rollback ${projectId} ${releaseId}`);
    const target = this.site.releases.find((r) => r.id === releaseId);
    if (target === undefined) throw new ApiError('Unknown release', 404, 'HOSTING.RELEASE_NOT_FOUND', null);
    this.site = { ...this.site, current_release: target };
    return this.site;
  }

  async addDomain(projectId: string, domain: string): Promise<AddedDomainDto> {
    await this.step('addDomain', `addDomain ${projectId} ${domain}`);
    const added = pendingDomain(domain);
    this.site = { ...this.site, domains: [...this.site.domains, added] };
    return { domain: added, records: added.records };
  }

  async removeDomain(projectId: string, domain: string): Promise<SiteStatusDto> {
    await this.step('removeDomain', `removeDomain ${projectId} ${domain}`);
    this.site = { ...this.site, domains: this.site.domains.filter((d) => d.domain !== domain) };
    return this.site;
  }

  async verifyDomain(domain: string, expectedTarget: string): Promise<DnsCheckDto> {
    await this.step('verifyDomain', `verifyDomain ${domain} ${expectedTarget}`);
    const current = this.site.domains.find((d) => d.domain === domain) ?? pendingDomain(domain);
    if (this.dnsReply !== null) return this.dnsReply(current);
    return { verified: false, txt_found: false, target_found: false, domain: current };
  }

  async takeScreenshot(projectId: string): Promise<ScreenshotDto> {
    await this.step('takeScreenshot', `takeScreenshot ${projectId}`);
    return { screenshot_url: '/api/hosting/sites/chores/screenshot.png', taken_at: '2026-01-10T12:00:05.000Z' };
  }

  async publicSite(slug: string): Promise<PublicSiteDto> {
    await this.step('publicSite', `publicSite ${slug}`);
    return this.publicSiteReply;
  }
}

/** The upgrade dialog as the hosting screens use it: records which limit it was opened for. */
export class FakeUpgrade {
  readonly opened: LimitType[] = [];
  open(limitType: LimitType = 'prompt'): Promise<void> {
    this.opened.push(limitType);
    return Promise.resolve();
  }
  openFor(error: unknown, fallback: LimitType = 'prompt'): boolean {
    const limit = limitTypeOf(error, fallback);
    if (limit === null) return false;
    this.opened.push(limit);
    return true;
  }
}
