import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsString, MaxLength } from 'class-validator';
import { ErrorResponse } from '../common/error-response.dto.js';
import { Public } from '../common/public.decorator.js';
import { iso } from '../common/wire.js';
import { MAIL_OUTBOX, type MailOutbox } from '../tokens.js';
import { LoopbackOnlyGuard } from './loopback-only.guard.js';

export class OutboxQuery {
  @ApiProperty({ example: 'ana@example.com' })
  @IsDefined({ message: 'is required' })
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'must be an email address' })
  email!: string;
}

export class OutboxMessageView {
  @ApiProperty() to!: string;
  @ApiProperty() subject!: string;
  @ApiProperty() text!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/**
 * Development only (not mounted when NODE_ENV is production): the mail sent to an address,
 * newest first, so one-time codes can be read without a mail server. It shows anyone's codes,
 * so it answers only clients on this machine (LoopbackOnlyGuard: 403 DEV.LOOPBACK_ONLY).
 */
@ApiTags('dev')
@UseGuards(LoopbackOnlyGuard)
@Controller('api/dev/outbox')
export class OutboxController {
  constructor(@Inject(MAIL_OUTBOX) private readonly outbox: MailOutbox) {}

  @Get()
  @ApiOperation({ summary: 'Mail sent to an address, newest first (development only, no token, loopback clients only)' })
  @Public()
  @ApiOkResponse({ type: [OutboxMessageView] })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED' })
  @ApiResponse({ status: 403, type: ErrorResponse, description: 'DEV.LOOPBACK_ONLY: the client is not on this machine' })
  async list(@Query() query: OutboxQuery): Promise<OutboxMessageView[]> {
    const messages = await this.outbox.list(query.email);
    return messages.map((m) => ({ to: m.to, subject: m.subject, text: m.text, created_at: iso(m.created_at) }));
  }
}
