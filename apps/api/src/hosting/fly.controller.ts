import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  AddCustomDomain,
  GetPublishStatus,
  GetSandboxMachine,
  ListPublishedSites,
  PublishProject,
  RemoveCustomDomain,
  RestartSite,
  RollbackRelease,
  TakeSiteScreenshot,
  UnpublishProject,
  VerifyCustomDomain,
} from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { iso } from '../common/wire.js';
import { unwrap } from '../error-mapping.js';
import { ProjectIdPipe } from '../projects/project-id.pipe.js';
import {
  AddDomainResponse,
  CreateSiteDto,
  DomainNameDto,
  DomainResponse,
  MachineStatusResponse,
  ProjectRefDto,
  RestartSiteDto,
  RollbackDto,
  SandboxMachineResponse,
  ScreenshotResponse,
  SiteStatusResponse,
  SiteSummaryResponse,
  VerifyDnsDto,
  VerifyDnsResponse,
  screenshotUrl,
} from './dto/hosting.dto.js';

const PUBLISH_402 = "PUBLISHING.NOT_INCLUDED / PUBLISHING.LIMIT_REACHED, limit_type 'published'";

/**
 * SPEC §7 "Hosted apps": the routes keep the SPEC's vendor names; what each does is in
 * docs/hosting.md. Every route acts on one of the caller's projects (another user's is 404).
 */
@ApiTags('hosting')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse })
@ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
@ApiResponse({ status: 404, type: ErrorResponse, description: 'PROJECTS.NOT_FOUND' })
@Controller('api/fly')
export class FlyController {
  constructor(
    @Inject(PublishProject) private readonly publish: PublishProject,
    @Inject(UnpublishProject) private readonly unpublish: UnpublishProject,
    @Inject(RestartSite) private readonly restart: RestartSite,
    @Inject(RollbackRelease) private readonly rollback: RollbackRelease,
    @Inject(AddCustomDomain) private readonly addDomain: AddCustomDomain,
    @Inject(RemoveCustomDomain) private readonly removeDomain: RemoveCustomDomain,
    @Inject(VerifyCustomDomain) private readonly verifyDomain: VerifyCustomDomain,
    @Inject(TakeSiteScreenshot) private readonly screenshot: TakeSiteScreenshot,
    @Inject(GetPublishStatus) private readonly status: GetPublishStatus,
    @Inject(ListPublishedSites) private readonly sites: ListPublishedSites,
    @Inject(GetSandboxMachine) private readonly machine: GetSandboxMachine,
  ) {}

  @Post('create-project')
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish the project (build its current files into a new release and serve it), or only answer its status' })
  @ApiOkResponse({ type: SiteStatusResponse })
  @ApiResponse({ status: 402, type: ErrorResponse, description: PUBLISH_402 })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'HOSTING.SLUG_TAKEN, HOSTING.NOTHING_TO_PUBLISH' })
  @ApiResponse({ status: 422, type: ErrorResponse, description: 'HOSTING.BUILD_FAILED with build_log: nothing published, nothing charged' })
  async createProject(@CurrentUser() user: AccessClaims, @Body() body: CreateSiteDto): Promise<SiteStatusResponse> {
    if (body.publish) unwrap(await this.publish.execute({ userId: user.userId, projectId: body.project_id, ...(body.slug === undefined ? {} : { slug: body.slug }) }));
    return this.statusOf(user, body.project_id);
  }

  @Delete('destroy-app')
  @ApiOperation({ summary: 'Unpublish: the site’s hosts stop answering; releases are kept for a rollback' })
  @ApiOkResponse({ type: SiteStatusResponse })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'HOSTING.NOT_PUBLISHED' })
  async destroyApp(@CurrentUser() user: AccessClaims, @Body() body: ProjectRefDto): Promise<SiteStatusResponse> {
    unwrap(await this.unpublish.execute({ userId: user.userId, projectId: body.project_id }));
    return this.statusOf(user, body.project_id);
  }

  @Post('restart-app')
  @HttpCode(200)
  @ApiOperation({ summary: 'publish: true builds and publishes again; false serves the current release again' })
  @ApiOkResponse({ type: SiteStatusResponse })
  @ApiResponse({ status: 402, type: ErrorResponse, description: PUBLISH_402 })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'HOSTING.NOT_PUBLISHED' })
  @ApiResponse({ status: 422, type: ErrorResponse, description: 'HOSTING.BUILD_FAILED' })
  async restartApp(@CurrentUser() user: AccessClaims, @Body() body: RestartSiteDto): Promise<SiteStatusResponse> {
    const input = { userId: user.userId, projectId: body.project_id };
    if (body.publish) unwrap(await this.publish.execute(input));
    else unwrap(await this.restart.execute(input));
    return this.statusOf(user, body.project_id);
  }

  @Post('rollback')
  @HttpCode(200)
  @ApiOperation({ summary: 'Serve an earlier release (instant: no build)' })
  @ApiOkResponse({ type: SiteStatusResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'HOSTING.RELEASE_NOT_FOUND' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'HOSTING.NOT_PUBLISHED' })
  async rollbackRelease(@CurrentUser() user: AccessClaims, @Body() body: RollbackDto): Promise<SiteStatusResponse> {
    unwrap(await this.rollback.execute({ userId: user.userId, projectId: body.project_id, releaseId: body.release_id }));
    return this.statusOf(user, body.project_id);
  }

  @Post('certificates/:projectId')
  @ApiOperation({ summary: 'Connect a custom domain: answers the DNS records to create' })
  @ApiCreatedResponse({ type: AddDomainResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'HOSTING.INVALID_DOMAIN' })
  @ApiResponse({ status: 402, type: ErrorResponse, description: PUBLISH_402 })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'HOSTING.DOMAIN_TAKEN' })
  async addCertificate(
    @CurrentUser() user: AccessClaims,
    @Param('projectId', ProjectIdPipe) projectId: string,
    @Body() body: DomainNameDto,
  ): Promise<AddDomainResponse> {
    const added = DomainResponse.from(unwrap(await this.addDomain.execute({ userId: user.userId, projectId, domainName: body.domain_name })));
    return { domain: added, records: added.records };
  }

  @Delete('certificates/:projectId')
  @ApiOperation({ summary: 'Disconnect a custom domain (its route is removed)' })
  @ApiOkResponse({ type: SiteStatusResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'HOSTING.DOMAIN_NOT_FOUND' })
  async removeCertificate(
    @CurrentUser() user: AccessClaims,
    @Param('projectId', ProjectIdPipe) projectId: string,
    @Body() body: DomainNameDto,
  ): Promise<SiteStatusResponse> {
    unwrap(await this.removeDomain.execute({ userId: user.userId, projectId, domainName: body.domain_name }));
    return this.statusOf(user, projectId);
  }

  @Post('verify-dns')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check the TXT token and the CNAME (A/AAAA at an apex); on success the domain gets its certificate and goes active' })
  @ApiOkResponse({ type: VerifyDnsResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'HOSTING.DOMAIN_NOT_FOUND' })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'HOSTING.DNS_UNAVAILABLE' })
  async verifyDns(@CurrentUser() user: AccessClaims, @Body() body: VerifyDnsDto): Promise<VerifyDnsResponse> {
    const r = unwrap(await this.verifyDomain.execute({ userId: user.userId, domainName: body.domain }));
    return { verified: r.verified, txt_found: r.txtFound, target_found: r.targetFound, domain: DomainResponse.from(r.domain) };
  }

  @Post('take-screenshot')
  @HttpCode(200)
  @ApiOperation({ summary: 'A picture of the published site, kept for the project card and /project-preview/{slug}' })
  @ApiOkResponse({ type: ScreenshotResponse })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'HOSTING.NOT_PUBLISHED' })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'HOSTING.SCREENSHOT_FAILED' })
  async takeScreenshot(@CurrentUser() user: AccessClaims, @Body() body: ProjectRefDto): Promise<ScreenshotResponse> {
    const shot = unwrap(await this.screenshot.execute({ userId: user.userId, projectId: body.project_id }));
    return { screenshot_url: screenshotUrl(shot.slug, shot.takenAt), taken_at: iso(shot.takenAt) };
  }

  @Get('machine-status')
  @ApiOperation({ summary: 'The site’s status, URL, releases and domains, and the project sandbox machine’s state' })
  @ApiOkResponse({ type: MachineStatusResponse })
  async machineStatus(@CurrentUser() user: AccessClaims, @Query('project_id', ProjectIdPipe) projectId: string): Promise<MachineStatusResponse> {
    const site = await this.statusOf(user, projectId);
    const machine = unwrap(await this.machine.execute(user.userId, projectId));
    return { ...site, sandbox: machine === null ? null : SandboxMachineResponse.from(machine) };
  }

  @Get('sites')
  @ApiOperation({ summary: 'All the caller’s sites in one answer (the home page’s cards): status, URL and screenshot while live' })
  @ApiOkResponse({ type: [SiteSummaryResponse] })
  async listSites(@CurrentUser() user: AccessClaims): Promise<SiteSummaryResponse[]> {
    return (await this.sites.execute(user.userId)).map(SiteSummaryResponse.from);
  }

  private async statusOf(user: AccessClaims, projectId: string): Promise<SiteStatusResponse> {
    return SiteStatusResponse.from(unwrap(await this.status.execute({ userId: user.userId, projectId })));
  }
}
