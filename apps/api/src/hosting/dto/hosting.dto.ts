import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { DnsRecordToCreate, DomainStatus, PublicSite, PublishStatus, Release, SandboxMachineState, SiteSummary } from '@kiln/domain';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { iso } from '../../common/wire.js';

/** Long enough for any real domain name (253) with some slack for what people paste; the domain's rules say the rest. */
const MAX_NAME_INPUT = 300;
const projectId = () => IsUUID('all', { message: 'must be a project id' });

export class ProjectRefDto {
  @ApiProperty({ format: 'uuid' })
  @IsDefined({ message: 'is required' })
  @projectId()
  project_id!: string;
}

export class CreateSiteDto extends ProjectRefDto {
  @ApiPropertyOptional({ enum: ['sin'], default: 'sin', description: 'SPEC §9: the one region' })
  @IsOptional()
  @IsIn(['sin'])
  region?: 'sin';

  @ApiProperty({ description: 'true builds and publishes the current files; false only answers the status' })
  @IsDefined({ message: 'is required' })
  @IsBoolean()
  publish!: boolean;

  @ApiPropertyOptional({ description: 'Accepted for the SPEC; the project’s own files are what is published' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  template_id?: string;

  @ApiPropertyOptional({ example: 'pantry', description: 'The site name ({slug} of PUBLISHED_URL_TEMPLATE); default: kept, or made from the project' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_NAME_INPUT)
  slug?: string;
}

export class RestartSiteDto extends ProjectRefDto {
  @ApiProperty({ description: 'true builds and publishes again (a new release); false serves the current release again' })
  @IsDefined({ message: 'is required' })
  @IsBoolean()
  publish!: boolean;
}

export class RollbackDto extends ProjectRefDto {
  @ApiProperty()
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(100)
  release_id!: string;
}

export class DomainNameDto {
  @ApiProperty({ example: 'shop.example.com' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_NAME_INPUT)
  domain_name!: string;
}

export class VerifyDnsDto {
  @ApiProperty({ example: 'shop.example.com' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(MAX_NAME_INPUT)
  domain!: string;

  @ApiPropertyOptional({ description: 'Accepted for the SPEC; Kiln checks against its own configured target (HOSTING_TARGET_CNAME / _ADDRESSES)' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_NAME_INPUT)
  expected_target?: string;
}

export class DnsRecordResponse {
  @ApiProperty({ enum: ['TXT', 'CNAME', 'A', 'AAAA'] }) type!: string;
  @ApiProperty() name!: string;
  @ApiProperty() value!: string;

  static from(r: DnsRecordToCreate): DnsRecordResponse {
    return { type: r.type, name: r.name, value: r.value };
  }
}

export class DomainResponse {
  @ApiProperty() id!: string;
  @ApiProperty({ example: 'shop.example.com' }) domain!: string;
  @ApiProperty({ enum: ['pending', 'verified', 'certificate_issued', 'active', 'failed'] }) status!: string;
  @ApiProperty({ type: String, nullable: true }) failure_reason!: string | null;
  @ApiProperty() url!: string;
  @ApiProperty({ type: [DnsRecordResponse] }) records!: DnsRecordResponse[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(d: DomainStatus): DomainResponse {
    return {
      id: d.domain.id,
      domain: d.domain.host,
      status: d.domain.status,
      failure_reason: d.domain.failureReason,
      url: d.url,
      records: d.records.map(DnsRecordResponse.from),
      created_at: iso(d.domain.createdAt),
    };
  }
}

export class ReleaseResponse {
  @ApiProperty() id!: string;
  @ApiProperty() number!: number;
  @ApiProperty({ description: "The sandbox version it was built from, or 'working-tree'" }) commit!: string;
  @ApiProperty() size_bytes!: number;
  @ApiProperty() file_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(r: Release): ReleaseResponse {
    return { id: r.id, number: r.number, commit: r.commit, size_bytes: r.sizeBytes, file_count: r.fileCount, created_at: iso(r.createdAt) };
  }
}

/** The public screenshot URL of a site, changing with each new picture (so caches never show an old one). */
export const screenshotUrl = (slug: string, takenAt: Date): string => `/api/hosting/sites/${slug}/screenshot.png?v=${takenAt.getTime()}`;

/** The project's sandbox machine (its container under SANDBOX_ENGINE=docker). */
export class SandboxMachineResponse {
  @ApiProperty({ example: 'docker', description: 'local, docker (or memory in tests)' }) engine!: string;
  @ApiProperty({ enum: ['running', 'paused', 'stopped', 'missing'] }) state!: string;
  @ApiProperty({ type: Number, nullable: true }) memory_bytes!: number | null;
  @ApiProperty({ type: Number, nullable: true }) cpu_percent!: number | null;

  static from(m: SandboxMachineState): SandboxMachineResponse {
    return { engine: m.engine, state: m.state, memory_bytes: m.memoryBytes, cpu_percent: m.cpuPercent };
  }
}

export class SiteStatusResponse {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ enum: ['live', 'unpublished', 'never_published'] }) status!: string;
  @ApiProperty({ type: String, nullable: true }) slug!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The Kiln subdomain URL while live' }) published_url!: string | null;
  @ApiProperty({ enum: ['sin'] }) region!: 'sin';
  @ApiProperty({ type: ReleaseResponse, nullable: true }) current_release!: ReleaseResponse | null;
  @ApiProperty({ type: [ReleaseResponse], description: 'Newest first' }) releases!: ReleaseResponse[];
  @ApiProperty({ type: [DomainResponse] }) domains!: DomainResponse[];
  @ApiProperty({ type: String, nullable: true }) screenshot_url!: string | null;

  static from(s: PublishStatus): SiteStatusResponse {
    return {
      project_id: s.projectId,
      status: s.status,
      slug: s.slug,
      published_url: s.url,
      region: 'sin',
      current_release: s.currentRelease ? ReleaseResponse.from(s.currentRelease) : null,
      releases: s.releases.map(ReleaseResponse.from),
      domains: s.domains.map(DomainResponse.from),
      screenshot_url: s.status === 'live' && s.slug !== null && s.screenshotTakenAt !== null ? screenshotUrl(s.slug, s.screenshotTakenAt) : null,
    };
  }
}

/** GET /api/fly/machine-status: the site's status and the sandbox machine's. */
export class MachineStatusResponse extends SiteStatusResponse {
  @ApiProperty({ type: SandboxMachineResponse, nullable: true, description: 'null when the sandbox host cannot tell' }) sandbox!: SandboxMachineResponse | null;
}

/** GET /api/fly/sites: one of the caller's sites, as the home page's project card shows it. */
export class SiteSummaryResponse {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ enum: ['live', 'unpublished', 'never_published'] }) status!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The Kiln subdomain URL while live' }) published_url!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'While live and once a screenshot was taken' }) screenshot_url!: string | null;

  static from(s: SiteSummary): SiteSummaryResponse {
    return {
      project_id: s.projectId,
      status: s.status,
      slug: s.slug,
      published_url: s.url,
      screenshot_url: s.status === 'live' && s.screenshotTakenAt !== null ? screenshotUrl(s.slug, s.screenshotTakenAt) : null,
    };
  }
}

export class AddDomainResponse {
  @ApiProperty({ type: DomainResponse }) domain!: DomainResponse;
  @ApiProperty({ type: [DnsRecordResponse] }) records!: DnsRecordResponse[];
}

export class VerifyDnsResponse {
  @ApiProperty() verified!: boolean;
  @ApiProperty() txt_found!: boolean;
  @ApiProperty() target_found!: boolean;
  @ApiProperty({ type: DomainResponse }) domain!: DomainResponse;
}

export class ScreenshotResponse {
  @ApiProperty() screenshot_url!: string;
  @ApiProperty({ format: 'date-time' }) taken_at!: string;
}

export class PublicSiteResponse {
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) published_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) screenshot_url!: string | null;

  static from(s: PublicSite): PublicSiteResponse {
    return {
      name: s.name,
      slug: s.slug,
      url: s.url,
      published_at: iso(s.publishedAt),
      screenshot_url: s.screenshotTakenAt ? screenshotUrl(s.slug, s.screenshotTakenAt) : null,
    };
  }
}

export class TlsAllowedResponse {
  @ApiProperty({ example: true }) allowed!: true;
}
