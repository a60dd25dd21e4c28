import { Controller, Get, Header, HttpCode, HttpException, HttpStatus, Inject, Param, Query, Res, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { GetPublicSite, GetPublicSiteScreenshot, IsTlsAllowed } from '@kiln/domain';
import type { Response } from 'express';
import { ErrorResponse } from '../common/error-response.dto.js';
import { Public } from '../common/public.decorator.js';
import { PublicSiteResponse, TlsAllowedResponse } from './dto/hosting.dto.js';

const notFound = (detail: string) => new HttpException({ code: 'NOT_FOUND', detail }, HttpStatus.NOT_FOUND);

/** The hosting routes anyone may call: the TLS edge's ask, and a live site's public page data. */
@ApiTags('hosting')
@Public()
@Controller('api/hosting')
export class PublicSitesController {
  constructor(
    @Inject(IsTlsAllowed) private readonly tlsAllowed: IsTlsAllowed,
    @Inject(GetPublicSite) private readonly publicSite: GetPublicSite,
    @Inject(GetPublicSiteScreenshot) private readonly publicScreenshot: GetPublicSiteScreenshot,
  ) {}

  /** Caddy's on-demand TLS `ask`: 200 lets it get a certificate for the host, anything else refuses. */
  @Get('tls-allowed')
  @HttpCode(200)
  @ApiOperation({ summary: 'May the TLS edge get a certificate for this host? (public)' })
  @ApiOkResponse({ type: TlsAllowedResponse })
  @ApiResponse({ status: 404, type: ErrorResponse })
  async isTlsAllowed(@Query('domain') domain: unknown): Promise<TlsAllowedResponse> {
    if (typeof domain !== 'string' || domain.length > 300 || !(await this.tlsAllowed.execute(domain))) throw notFound('No certificate for this host');
    return { allowed: true };
  }

  @Get('sites/:slug')
  @ApiOperation({ summary: 'A live site for /project-preview/{slug} (public)' })
  @ApiOkResponse({ type: PublicSiteResponse })
  @ApiResponse({ status: 404, type: ErrorResponse })
  async site(@Param('slug') slug: string): Promise<PublicSiteResponse> {
    const site = await this.publicSite.execute(slug);
    if (!site) throw notFound('No published site at this address');
    return PublicSiteResponse.from(site);
  }

  @Get('sites/:slug/screenshot.png')
  @Header('Content-Type', 'image/png')
  @Header('X-Content-Type-Options', 'nosniff')
  @ApiOperation({ summary: 'The screenshot of a live site (public)' })
  @ApiResponse({ status: 200, description: 'image/png' })
  @ApiResponse({ status: 404, type: ErrorResponse })
  async screenshot(@Param('slug') slug: string, @Res({ passthrough: true }) res: Response): Promise<StreamableFile> {
    const shot = await this.publicScreenshot.execute(slug);
    if (!shot) throw notFound('No screenshot for this site');
    res.setHeader('Last-Modified', shot.takenAt.toUTCString());
    return new StreamableFile(Buffer.from(shot.png));
  }
}
