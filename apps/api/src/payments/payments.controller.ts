import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AccessClaims, BuyAddOnCredits, CancelSubscription, ForceUpdateSubscription, ListInvoices, OpenCustomerPortal, StartCheckout } from '@kiln/domain';
import { CurrentUser } from '../common/current-user.decorator.js';
import { ErrorResponse } from '../common/error-response.dto.js';
import { iso } from '../common/wire.js';
import { unwrap } from '../error-mapping.js';
import {
  CancelSubscriptionRequest,
  CreateCheckoutSessionRequest,
  ForceUpdateResponse,
  InvoicesResponse,
  MessageResponse,
  PaymentLinkResponse,
  PortalResponse,
  UrlResponse,
} from './dto/payments.dto.js';

/** SPEC §7 Payment: thin mappings from the wire to the billing use cases. */
@ApiTags('payment')
@ApiBearerAuth()
@ApiResponse({ status: 401, type: ErrorResponse, description: 'no_authorization / bad_jwt / session_not_found' })
@Controller('api')
export class PaymentsController {
  constructor(
    @Inject(StartCheckout) private readonly startCheckout: StartCheckout,
    @Inject(CancelSubscription) private readonly cancelSubscription: CancelSubscription,
    @Inject(ForceUpdateSubscription) private readonly forceUpdateSubscription: ForceUpdateSubscription,
    @Inject(OpenCustomerPortal) private readonly openCustomerPortal: OpenCustomerPortal,
    @Inject(BuyAddOnCredits) private readonly buyAddOnCredits: BuyAddOnCredits,
    @Inject(ListInvoices) private readonly listInvoices: ListInvoices,
  ) {}

  @Get('payment/invoices')
  @ApiOperation({ summary: 'Billing history: the invoices at the payment provider (the local checkout’s in test mode), newest first' })
  @ApiOkResponse({ type: InvoicesResponse })
  @ApiResponse({ status: 503, type: ErrorResponse, description: 'BILLING.PROVIDER_UNAVAILABLE' })
  async invoices(@CurrentUser() user: AccessClaims): Promise<InvoicesResponse> {
    const invoices = unwrap(await this.listInvoices.execute({ userId: user.userId }));
    return {
      invoices: invoices.map((i) => ({
        id: i.id,
        number: i.number,
        status: i.status,
        amount_minor: i.amountMinor,
        currency: i.currency,
        description: i.description,
        created_at: iso(i.createdAt),
        url: i.url,
      })),
    };
  }

  @Post('payment/create-checkout-session')
  @HttpCode(200)
  @ApiOperation({ summary: 'A hosted checkout URL for a paid plan at 1x, 2x or 3x (the price charged is multiplied), in the profile currency' })
  @ApiOkResponse({ type: UrlResponse })
  @ApiResponse({ status: 400, type: ErrorResponse, description: 'VALIDATION_FAILED / PLANS.UNKNOWN / BILLING.NOT_PURCHASABLE' })
  @ApiResponse({ status: 409, type: ErrorResponse, description: 'BILLING.CURRENCY_CHANGED: the profile is charged in another currency than the one shown' })
  async checkout(@CurrentUser() user: AccessClaims, @Body() body: CreateCheckoutSessionRequest): Promise<UrlResponse> {
    return unwrap(
      await this.startCheckout.execute({
        userId: user.userId,
        planId: body.plan_id,
        ...(body.currency ? { shownCurrency: body.currency } : {}),
        ...(body.multiplier === undefined ? {} : { multiplier: body.multiplier }),
      }),
    );
  }

  @Post('cancel-subscription')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel the subscription at the end of the paid period' })
  @ApiOkResponse({ type: MessageResponse })
  @ApiResponse({ status: 403, type: ErrorResponse, description: 'BILLING.NOT_YOUR_SUBSCRIPTION' })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'BILLING.NO_SUBSCRIPTION' })
  async cancel(@CurrentUser() user: AccessClaims, @Body() body: CancelSubscriptionRequest): Promise<MessageResponse> {
    return unwrap(await this.cancelSubscription.execute({ userId: user.userId, subscriptionId: body.subscriptionId }));
  }

  @Post('payment/force-update-subscription')
  @HttpCode(200)
  @ApiOperation({ summary: 'Re-read the subscription from the provider and apply it (manual sync)' })
  @ApiOkResponse({ type: ForceUpdateResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'BILLING.NO_SUBSCRIPTION' })
  async forceUpdate(@CurrentUser() user: AccessClaims): Promise<ForceUpdateResponse> {
    const r = unwrap(await this.forceUpdateSubscription.execute({ userId: user.userId }));
    const s = r.subscription;
    return {
      status: r.status,
      message: r.message,
      plan: { ...r.plan },
      subscription: {
        id: s.id,
        customer_id: s.customerId,
        plan_id: s.planId,
        status: s.status,
        billing_interval: s.interval,
        current_period_start: iso(s.currentPeriodStart),
        current_period_end: iso(s.currentPeriodEnd),
        cancel_at_period_end: s.cancelAtPeriodEnd,
      },
    };
  }

  @Post('payment/create-customer-portal')
  @HttpCode(200)
  @ApiOperation({ summary: 'The provider’s customer portal (needs customer_id)' })
  @ApiOkResponse({ type: PortalResponse })
  @ApiResponse({ status: 404, type: ErrorResponse, description: 'BILLING.NO_CUSTOMER: "No active subscription found. Please subscribe first."' })
  async portal(@CurrentUser() user: AccessClaims): Promise<PortalResponse> {
    const { link } = unwrap(await this.openCustomerPortal.execute({ userId: user.userId }));
    return { link: { link } };
  }

  @Post('payment/create-payment-link')
  @HttpCode(200)
  @ApiOperation({ summary: 'A one-time payment page for one add-on pack (500 credits)' })
  @ApiOkResponse({ type: PaymentLinkResponse })
  async paymentLink(@CurrentUser() user: AccessClaims): Promise<PaymentLinkResponse> {
    return unwrap(await this.buyAddOnCredits.execute({ userId: user.userId }));
  }
}
