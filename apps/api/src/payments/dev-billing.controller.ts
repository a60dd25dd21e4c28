import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { LocalPaymentGateway } from '@kiln/adapters';
import { type AccessClaims, HandlePaymentEvent, type ProfileRepository, noSubscription, profileNotFound } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { toException } from '../error-mapping.js';
import { PROFILE_REPOSITORY } from '../tokens.js';
import { applyPaymentEvents } from './apply-events.js';

export class DevBillingResponse {
  @ApiProperty({ description: 'The ids of the provider events applied' }) events!: string[];
}

/**
 * Development only (local test checkout, NODE_ENV not production): simulates, for the signed-in
 * user's local subscription, a renewal now or the end of the current period now (a subscription
 * set to cancel ends and the user returns to free; any other renews). Same HandlePaymentEvent path.
 */
@ApiTags('dev')
@ApiBearerAuth()
@ApiResponse({ status: 404, type: ErrorResponse, description: 'BILLING.NO_SUBSCRIPTION' })
@Controller('api/dev/billing')
export class DevBillingController {
  constructor(
    @Inject(LocalPaymentGateway) private readonly gateway: LocalPaymentGateway,
    @Inject(HandlePaymentEvent) private readonly handler: HandlePaymentEvent,
    @Inject(PROFILE_REPOSITORY) private readonly profiles: ProfileRepository,
  ) {}

  @Post('renew')
  @HttpCode(200)
  @ApiOperation({ summary: 'Renew the local subscription now: new period, new invoice, allowance reset (development only)' })
  @ApiOkResponse({ type: DevBillingResponse })
  async renew(@CurrentUser() user: AccessClaims): Promise<DevBillingResponse> {
    const events = await this.gateway.renew(await this.subscriptionOf(user.userId));
    await applyPaymentEvents(this.handler, events);
    return { events: events.map((e) => e.id) };
  }

  @Post('end-period')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the current period now: a canceled subscription ends (→ free), others renew (development only)' })
  @ApiOkResponse({ type: DevBillingResponse })
  async endPeriod(@CurrentUser() user: AccessClaims): Promise<DevBillingResponse> {
    const events = await this.gateway.endPeriod(await this.subscriptionOf(user.userId));
    await applyPaymentEvents(this.handler, events);
    return { events: events.map((e) => e.id) };
  }

  private async subscriptionOf(userId: string): Promise<string> {
    const profile = await this.profiles.findById(userId);
    if (!profile) throw toException(profileNotFound(userId));
    if (!profile.subscriptionId || (await this.gateway.ownerOf(profile.subscriptionId)) !== userId) throw toException(noSubscription());
    return profile.subscriptionId;
  }
}
