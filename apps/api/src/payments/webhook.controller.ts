import { Controller, Headers, HttpCode, Inject, Logger, Post, type RawBodyRequest, Req } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { HandlePaymentEvent, type PaymentWebhookVerifier } from '@kiln/domain';
import type { Request } from 'express';
import { Public } from '../common/public.decorator.js';
import { unwrap } from '../error-mapping.js';
import { PAYMENT_WEBHOOK_VERIFIER } from '../tokens.js';
import { applyPaymentEvents } from './apply-events.js';

/**
 * POST /api/payment/webhook (public; Stripe signs it). The signature is checked over the raw
 * bytes (NestFactory rawBody), 300 s tolerance: a bad one is a 400 and nothing happens. The reply
 * is 200 only after the event's effect committed; any failure is a 500 so Stripe retries.
 */
@Controller('api/payment/webhook')
export class WebhookController {
  private readonly log = new Logger('PaymentWebhook');

  constructor(
    @Inject(PAYMENT_WEBHOOK_VERIFIER) private readonly verifier: PaymentWebhookVerifier,
    @Inject(HandlePaymentEvent) private readonly handler: HandlePaymentEvent,
  ) {}

  @Post()
  @Public()
  @HttpCode(200)
  @ApiExcludeEndpoint()
  async receive(@Req() req: RawBodyRequest<Request>, @Headers('stripe-signature') signature: string | undefined): Promise<{ received: true }> {
    const event = unwrap(this.verifier.verify(req.rawBody ?? '', signature));
    if (event) {
      await applyPaymentEvents(this.handler, [event]);
      this.log.log(`applied ${event.type} ${event.id}`);
    }
    return { received: true };
  }
}
