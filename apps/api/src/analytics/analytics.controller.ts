import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type AccessClaims,
  type AccessTokenVerifier,
  DEFAULT_ACTIVITY_DAYS,
  type DailyActivity,
  ReadDailyActivity,
  RecordTrackingEvents,
  type TrackingEventInput,
} from '@kiln/domain';
import type { Request, Response } from 'express';
import { bearerToken } from '../common/bearer-auth.guard.js';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { Public } from '../common/public.decorator.js';
import { unwrap } from '../error-mapping.js';
import { ACCESS_TOKEN_VERIFIER, APP_CONFIG } from '../tokens.js';
import type { AppConfig } from '../config.js';
import { DailyActivityQuery, TrackingEventsDto } from './dto/analytics.dto.js';

export class AnalyticsClientConfigResponse {
  @ApiProperty({ type: String, nullable: true, example: 'G-ABC123XYZ', description: 'GA4 measurement id; null: first-party analytics only' })
  ga4_measurement_id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'https://www.googletagmanager.com' }) ga4_script_origin!: string | null;
  @ApiProperty({ description: 'SPEC §5: send analytics from localhost too' }) enabled_on_localhost!: boolean;
}

export class RecordedEventsResponse {
  @ApiProperty() recorded!: number;
}

export class DailyActivityRow {
  @ApiProperty({ example: '2026-11-26' }) day!: string;
  @ApiProperty() page_views!: number;
  @ApiProperty() signups!: number;
  @ApiProperty() prompts!: number;

  static from(d: DailyActivity): DailyActivityRow {
    return { day: d.day, page_views: d.pageViews, signups: d.signups, prompts: d.prompts };
  }
}

export class DailyActivityResponse {
  @ApiProperty({ type: [DailyActivityRow], description: 'Oldest first, today (UTC) last' }) days!: DailyActivityRow[];
}

/**
 * Kiln's first-party analytics: the web's runtime analytics settings, its batches of events
 * (anonymous visitors welcome; a signed-in sender is attached), and the operators' daily chart.
 */
@ApiTags('analytics')
@Controller('api/analytics')
export class AnalyticsController {
  constructor(
    @Inject(RecordTrackingEvents) private readonly record: RecordTrackingEvents,
    @Inject(ReadDailyActivity) private readonly readActivity: ReadDailyActivity,
    @Inject(ACCESS_TOKEN_VERIFIER) private readonly verifier: AccessTokenVerifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('config')
  @Public()
  @ApiOperation({ summary: 'Where the web sends analytics: GA4 (when configured) besides Kiln, and whether from localhost' })
  @ApiOkResponse({ type: AnalyticsClientConfigResponse })
  clientConfig(): AnalyticsClientConfigResponse {
    const { ga4, onLocalhost } = this.config.analytics;
    return { ga4_measurement_id: ga4?.measurementId ?? null, ga4_script_origin: ga4?.scriptOrigin ?? null, enabled_on_localhost: onLocalhost };
  }

  @Post('events')
  @Public()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Records a batch of page views and events (SPEC §5 rules); the bearer token, when valid, names the sender' })
  @ApiResponse({ status: 202, type: RecordedEventsResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, or a SPEC §5 tracking rule (ANALYTICS.*)' })
  @ApiResponse({ status: 429, type: ErrorResponse, description: 'ANALYTICS.RATE_LIMITED (Retry-After)' })
  async events(@Body() body: TrackingEventsDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RecordedEventsResponse> {
    const result = await this.record.execute({
      events: body.events as TrackingEventInput[],
      userId: await this.senderOf(req),
      clientAddress: req.ip ?? 'unknown',
    });
    if (!result.ok && result.error.code === 'ANALYTICS.RATE_LIMITED') res.setHeader('Retry-After', String(result.error.retryAfterSeconds));
    return unwrap(result);
  }

  @Get('daily-activity')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Daily page views, sign-ups and prompts of the last N UTC days (operators: OPERATOR_EMAILS)' })
  @ApiOkResponse({ type: DailyActivityResponse })
  @ApiResponse({ status: 401, type: ErrorResponse })
  @ApiResponse({ status: 403, type: ErrorResponse, description: 'ANALYTICS.NOT_AN_OPERATOR' })
  async dailyActivity(@CurrentUser() user: AccessClaims, @Query() query: DailyActivityQuery): Promise<DailyActivityResponse> {
    const days = unwrap(await this.readActivity.execute({ email: user.email, days: query.days ?? DEFAULT_ACTIVITY_DAYS }));
    return { days: days.map(DailyActivityRow.from) };
  }

  /** The signed-in sender, or null (no token, or one that no longer verifies: the event still counts). */
  private async senderOf(req: Request): Promise<string | null> {
    const token = bearerToken(req.headers.authorization);
    if (token === null) return null;
    const claims = await this.verifier.verify(token);
    return claims.ok ? claims.value.userId : null;
  }
}
