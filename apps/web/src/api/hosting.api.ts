// Publishing: the SPEC §7 "Hosted apps" routes as docs/hosting.md describes them, and the
// publish check of /api/projects. Snake_case DTOs exactly as the API sends them.
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export type SiteStatus = 'live' | 'unpublished' | 'never_published';
export type DomainStatus = 'pending' | 'verified' | 'certificate_issued' | 'active' | 'failed';
export type DnsRecordType = 'TXT' | 'CNAME' | 'A' | 'AAAA';

export interface ReleaseDto {
  readonly id: string;
  readonly number: number;
  /** The git commit the release was built from. */
  readonly commit: string;
  readonly size_bytes: number;
  readonly file_count: number;
  readonly created_at: string;
}

export interface DnsRecordDto {
  readonly type: DnsRecordType;
  readonly name: string;
  readonly value: string;
}

export interface DomainDto {
  readonly id: string;
  readonly domain: string;
  readonly status: DomainStatus;
  readonly failure_reason: string | null;
  /** https://<domain> once it serves the site. */
  readonly url: string | null;
  readonly records: readonly DnsRecordDto[];
  readonly created_at: string;
}

export interface SiteStatusDto {
  readonly project_id: string;
  readonly status: SiteStatus;
  readonly slug: string | null;
  /** The Kiln subdomain URL. */
  readonly published_url: string | null;
  readonly region: string;
  readonly current_release: ReleaseDto | null;
  /** Newest first. */
  readonly releases: readonly ReleaseDto[];
  readonly domains: readonly DomainDto[];
  readonly screenshot_url: string | null;
}

/** GET /api/fly/sites: one of the caller's sites, for its home card. */
export interface SiteSummaryDto {
  readonly project_id: string;
  readonly status: SiteStatus;
  readonly slug: string;
  /** The Kiln subdomain URL while live. */
  readonly published_url: string | null;
  readonly screenshot_url: string | null;
}

/** GET /api/projects/:id/publish-check when publishing is allowed (a refusal is a 402). */
export interface PublishCheckDto {
  readonly allowed: true;
  readonly limit: number | 'unlimited';
}

export interface AddedDomainDto {
  readonly domain: DomainDto;
  readonly records: readonly DnsRecordDto[];
}

export interface DnsCheckDto {
  readonly verified: boolean;
  readonly txt_found: boolean;
  readonly target_found: boolean;
  readonly domain: DomainDto;
}

export interface ScreenshotDto {
  readonly screenshot_url: string;
  readonly taken_at: string;
}

/** GET /api/hosting/sites/{slug}: a live site, as anyone may see it. */
export interface PublicSiteDto {
  readonly name: string;
  readonly slug: string;
  readonly url: string;
  readonly published_at: string;
  readonly screenshot_url: string | null;
}

export interface HostingApi {
  /** Resolves when the plan allows publishing; a 402 (limit_type 'published') when it does not. */
  publishCheck(projectId: string): Promise<PublishCheckDto>;
  /** GET /api/fly/machine-status. */
  status(projectId: string): Promise<SiteStatusDto>;
  /** GET /api/fly/sites: every site of the caller's projects, in one request. */
  sites(): Promise<SiteSummaryDto[]>;
  /** Builds the project's current files and publishes them (a new release). 422 with build_log on a failed build. */
  publish(projectId: string): Promise<SiteStatusDto>;
  unpublish(projectId: string): Promise<SiteStatusDto>;
  rollback(projectId: string, releaseId: string): Promise<SiteStatusDto>;
  addDomain(projectId: string, domain: string): Promise<AddedDomainDto>;
  removeDomain(projectId: string, domain: string): Promise<SiteStatusDto>;
  verifyDomain(domain: string, expectedTarget: string): Promise<DnsCheckDto>;
  takeScreenshot(projectId: string): Promise<ScreenshotDto>;
  /** Public: no bearer token. */
  publicSite(slug: string): Promise<PublicSiteDto>;
}

const DEFAULT_REGION = 'sin';

@injectable()
export class HttpHostingApi implements HostingApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  publishCheck(projectId: string): Promise<PublishCheckDto> {
    return this.http.get<PublishCheckDto>(`/api/projects/${encodeURIComponent(projectId)}/publish-check`);
  }

  status(projectId: string): Promise<SiteStatusDto> {
    return this.http.get<SiteStatusDto>(`/api/fly/machine-status?project_id=${encodeURIComponent(projectId)}`);
  }

  sites(): Promise<SiteSummaryDto[]> {
    return this.http.get<SiteSummaryDto[]>('/api/fly/sites');
  }

  // Requests that build, switch releases or take a picture run once: a retry after a 5xx could
  // start a second build while the first is still going.
  publish(projectId: string): Promise<SiteStatusDto> {
    return this.http.post<SiteStatusDto>('/api/fly/create-project', { project_id: projectId, region: DEFAULT_REGION, publish: true }, { retry: false });
  }

  unpublish(projectId: string): Promise<SiteStatusDto> {
    return this.http.delete<SiteStatusDto>('/api/fly/destroy-app', { body: { project_id: projectId } });
  }

  rollback(projectId: string, releaseId: string): Promise<SiteStatusDto> {
    return this.http.post<SiteStatusDto>('/api/fly/rollback', { project_id: projectId, release_id: releaseId }, { retry: false });
  }

  addDomain(projectId: string, domain: string): Promise<AddedDomainDto> {
    return this.http.post<AddedDomainDto>(`/api/fly/certificates/${encodeURIComponent(projectId)}`, { domain_name: domain }, { retry: false });
  }

  removeDomain(projectId: string, domain: string): Promise<SiteStatusDto> {
    return this.http.delete<SiteStatusDto>(`/api/fly/certificates/${encodeURIComponent(projectId)}`, { body: { domain_name: domain } });
  }

  verifyDomain(domain: string, expectedTarget: string): Promise<DnsCheckDto> {
    return this.http.post<DnsCheckDto>('/api/fly/verify-dns', { domain, expected_target: expectedTarget });
  }

  takeScreenshot(projectId: string): Promise<ScreenshotDto> {
    return this.http.post<ScreenshotDto>('/api/fly/take-screenshot', { project_id: projectId }, { retry: false });
  }

  publicSite(slug: string): Promise<PublicSiteDto> {
    return this.http.get<PublicSiteDto>(`/api/hosting/sites/${encodeURIComponent(slug)}`, { anonymous: true });
  }
}
