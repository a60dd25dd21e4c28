import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { MarketingOutbox } from '@kiln/domain';
import { IsEmail, IsOptional, IsString, MaxLength } from 'class-validator';
import { ErrorResponse } from '../common/error-response.dto.js';
import { Public } from '../common/public.decorator.js';
import { iso } from '../common/wire.js';
import { LOCAL_MARKETING_AUDIENCE, type LocalMarketingView, MARKETING_OUTBOX } from '../tokens.js';
import { LoopbackOnlyGuard } from './loopback-only.guard.js';

export class MarketingQuery {
  @ApiPropertyOptional({ example: 'ana@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'must be an email address' })
  email?: string;
}

export class MarketingView {
  @ApiProperty({ description: 'Contacts in the local store (most recently updated first, at most 100)' }) contacts!: object[];
  @ApiProperty({ description: 'Events in the local store (oldest first, the latest 100)' }) events!: object[];
  @ApiProperty({ description: "With ?email: that contact's undelivered updates, events and removals (attempts so far)" }) pending!: object[];
}

/**
 * Development only (not mounted when NODE_ENV is production): what the local marketing store
 * (the default without BREVO_API_KEY) holds, and with ?email what still waits in the outbox.
 * It shows anyone's contact, so it answers only clients on this machine (LoopbackOnlyGuard).
 */
@ApiTags('dev')
@UseGuards(LoopbackOnlyGuard)
@Controller('api/dev/marketing')
export class MarketingDevController {
  constructor(
    @Inject(LOCAL_MARKETING_AUDIENCE) private readonly local: LocalMarketingView,
    @Inject(MARKETING_OUTBOX) private readonly outbox: MarketingOutbox,
  ) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Local marketing contacts, events and pending deliveries (development only, no token, loopback clients only)' })
  @ApiOkResponse({ type: MarketingView })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 403, type: ErrorResponse, description: 'DEV.LOOPBACK_ONLY: the client is not on this machine' })
  async view(@Query() query: MarketingQuery): Promise<MarketingView> {
    const contacts = await this.local.contacts(query.email);
    const events = await this.local.events(query.email);
    const pending = query.email === undefined ? [] : await this.outbox.pending(query.email);
    return {
      contacts: contacts.map((c) => ({ email: c.email, attributes: c.attributes, created_at: iso(c.createdAt), updated_at: iso(c.updatedAt) })),
      events: events.map((e) => ({ email: e.email, event_name: e.eventName, identifiers: e.identifiers, event_properties: e.properties, occurred_at: iso(e.occurredAt) })),
      pending: pending.map((p) => ({ id: p.id, kind: p.delivery.kind, attempts: p.attempts })),
    };
  }
}
