import { Body, Controller, HttpCode, HttpStatus, Inject, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, type MarketingRequestError, type Result, TrackMarketingEvent, UpdateMarketingContact } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { ApiErrorException } from '../error-mapping.js';
import { BrevoReply, TrackEventBody, UpdateContactBody } from './brevo.dto.js';

const STATUS: Readonly<Record<MarketingRequestError['code'], HttpStatus>> = {
  'MARKETING.EMAIL_REQUIRED': HttpStatus.BAD_REQUEST,
  'MARKETING.NOT_YOUR_CONTACT': HttpStatus.FORBIDDEN,
  'MARKETING.INVALID_ATTRIBUTE': HttpStatus.BAD_REQUEST,
  'MARKETING.INVALID_PROMPT_COUNT': HttpStatus.BAD_REQUEST,
  'MARKETING.EVENT_NAME_REQUIRED': HttpStatus.BAD_REQUEST,
  'MARKETING.INVALID_EVENT': HttpStatus.BAD_REQUEST,
};

/**
 * SPEC §7 "Marketing": the web tells the marketing audience about the signed-in person. Both
 * routes queue the request in the marketing outbox and answer `{success: true, error: null}`
 * at once; the worker delivers it to Brevo (or the local store), retrying while it is down.
 * A refused request answers 4xx with `{code, detail, success: false, error}`.
 */
@ApiTags('marketing')
@ApiBearerAuth()
@Controller('api/brevo')
export class BrevoController {
  constructor(
    @Inject(UpdateMarketingContact) private readonly updateContact: UpdateMarketingContact,
    @Inject(TrackMarketingEvent) private readonly trackEvent: TrackMarketingEvent,
  ) {}

  @Put('update-contact')
  @HttpCode(200)
  @ApiOperation({ summary: "Update the caller's marketing contact (every SPEC §3 attribute; phone numbers get +1 unless they start with + or 00)" })
  @ApiOkResponse({ type: BrevoReply })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, MARKETING.*' })
  @ApiResponse({ status: 403, type: ErrorResponse, description: "MARKETING.NOT_YOUR_CONTACT: not the caller's email" })
  async update(@CurrentUser() user: AccessClaims, @Body() body: UpdateContactBody): Promise<BrevoReply> {
    const attributes: Record<string, unknown> = { ...body.attributes };
    return reply(await this.updateContact.execute({ caller: { userId: user.userId, email: user.email }, email: body.email, attributes }));
  }

  @Post('track-event')
  @HttpCode(200)
  @ApiOperation({ summary: "Track an event of the caller's marketing contact" })
  @ApiOkResponse({ type: BrevoReply })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED, MARKETING.*' })
  @ApiResponse({ status: 403, type: ErrorResponse, description: "MARKETING.NOT_YOUR_CONTACT: not the caller's email or id" })
  async track(@CurrentUser() user: AccessClaims, @Body() body: TrackEventBody): Promise<BrevoReply> {
    const identifiers = {
      ...(body.identifiers.email_id === undefined ? {} : { email_id: body.identifiers.email_id }),
      ...(body.identifiers.ext_id === undefined ? {} : { ext_id: body.identifiers.ext_id }),
    };
    const result = await this.trackEvent.execute({ caller: { userId: user.userId, email: user.email }, eventName: body.event_name, identifiers, properties: body.event_properties ?? {} });
    return reply(result);
  }
}

function reply(result: Result<void, MarketingRequestError>): BrevoReply {
  if (result.ok) return { success: true, error: null };
  const { code, message } = result.error;
  throw new ApiErrorException({ status: STATUS[code], body: { code, detail: message, success: false, error: message } });
}
