import { Body, Controller, Get, Header, Inject, NotFoundException, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { LocalPaymentGateway } from '@kiln/adapters';
import { ADDON_PACK_CREDITS, ADDON_PACK_PRICE_MINOR, type Clock, HandlePaymentEvent, type PlanCatalog, checkoutPrice, formatMoney, moneyOf } from '@kiln/domain';
import type { Response } from 'express';
import { Public } from '../common/public.decorator.js';
import { APP_CONFIG, CLOCK, PLAN_CATALOG } from '../tokens.js';
import type { AppConfig } from '../config.js';
import { applyPaymentEvents } from './apply-events.js';
import { LOCAL_CHECKOUT_TOKEN_FIELD, LocalCheckoutTokens } from './local-checkout-tokens.js';
import { checkoutPage, portalPage } from './local-checkout.page.js';

/** The form the pages' buttons post: the capability of the link the page was opened with. */
type CapabilityForm = Readonly<Record<typeof LOCAL_CHECKOUT_TOKEN_FIELD, unknown>> | undefined;

/**
 * The local test checkout (no STRIPE_SECRET_KEY, never in production): the pages the local
 * gateway's URLs point at. Paying or cancelling here feeds the same normalized events a Stripe
 * webhook would into HandlePaymentEvent, then redirects back to the web app (303).
 *
 * Only the owner: every page and button needs the capability of the link the API handed the
 * signed-in owner (LocalCheckoutTokens: `?token=` on the page, a form field on its buttons).
 * Without it, with another session's, user's or customer's, or an expired one, the answer is
 * 404 — the same as for a session that does not exist, so ids cannot be probed.
 */
@ApiExcludeController()
@Public()
@Controller('local-checkout')
export class LocalCheckoutController {
  constructor(
    @Inject(LocalPaymentGateway) private readonly gateway: LocalPaymentGateway,
    @Inject(HandlePaymentEvent) private readonly handler: HandlePaymentEvent,
    @Inject(LocalCheckoutTokens) private readonly tokens: LocalCheckoutTokens,
    @Inject(PLAN_CATALOG) private readonly plans: PlanCatalog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('portal/:customerId')
  @Header('Content-Type', 'text/html; charset=utf-8')
  async portal(@Param('customerId') customerId: string, @Query(LOCAL_CHECKOUT_TOKEN_FIELD) token: unknown, @Res({ passthrough: true }) res: Response): Promise<string> {
    await this.requirePortal(customerId, token);
    this.allowFormsBackToTheApp(res);
    return portalPage(customerId, await this.gateway.subscriptionsOfCustomer(customerId), this.appUrl(), token as string);
  }

  @Post('portal/:customerId/cancel/:subscriptionId')
  async cancelFromPortal(
    @Param('customerId') customerId: string,
    @Param('subscriptionId') subscriptionId: string,
    @Body() form: CapabilityForm,
    @Res() res: Response,
  ): Promise<void> {
    const token = form?.[LOCAL_CHECKOUT_TOKEN_FIELD];
    await this.requirePortal(customerId, token);
    const sub = (await this.gateway.subscriptionsOfCustomer(customerId)).find((s) => s.id === subscriptionId);
    if (!sub) throw new NotFoundException();
    const canceled = await this.gateway.cancelSubscription({ subscriptionId, idempotencyKey: `portal-cancel:${subscriptionId}` });
    const at = this.clock.now();
    await applyPaymentEvents(this.handler, [
      { id: `evt_local_portal_${subscriptionId}_${at.getTime()}`, type: 'subscription.updated', occurredAt: at, userId: await this.gateway.ownerOf(subscriptionId), subscription: canceled },
    ]);
    res.redirect(303, `/local-checkout/portal/${encodeURIComponent(customerId)}?${new URLSearchParams({ [LOCAL_CHECKOUT_TOKEN_FIELD]: token as string })}`);
  }

  @Get(':id')
  @Header('Content-Type', 'text/html; charset=utf-8')
  async page(@Param('id') id: string, @Query(LOCAL_CHECKOUT_TOKEN_FIELD) token: unknown, @Res({ passthrough: true }) res: Response): Promise<string> {
    const session = await this.ownedSession(id, token);
    this.allowFormsBackToTheApp(res);
    if (session.kind === 'add_on') {
      const price = moneyOf(ADDON_PACK_PRICE_MINOR[session.currency], session.currency);
      return checkoutPage(session, { product: `${ADDON_PACK_CREDITS} add-on credits`, amount: formatMoney(price) }, token as string);
    }
    const plan = this.plans.resolve(session.planId);
    const multiplier = session.multiplier ?? 1;
    // The price charged is the multiplied one (checkoutPrice), as a provider shows the quantity's total.
    const amount = formatMoney(checkoutPrice(plan, session.currency, multiplier));
    const product = multiplier === 1 ? plan.name : `${plan.name} ${multiplier}x`;
    return checkoutPage(session, { product, amount: `${amount} / ${plan.interval === 'annual' ? 'year' : 'month'}` }, token as string);
  }

  @Post(':id/complete')
  async complete(@Param('id') id: string, @Body() form: CapabilityForm, @Res() res: Response): Promise<void> {
    await this.ownedSession(id, form?.[LOCAL_CHECKOUT_TOKEN_FIELD]);
    const paid = await this.gateway.complete(id);
    if (!paid) throw new NotFoundException(`No payable test checkout ${id}`);
    await applyPaymentEvents(this.handler, paid.events);
    res.redirect(303, paid.returnUrl);
  }

  @Post(':id/cancel')
  async cancel(@Param('id') id: string, @Body() form: CapabilityForm, @Res() res: Response): Promise<void> {
    await this.ownedSession(id, form?.[LOCAL_CHECKOUT_TOKEN_FIELD]);
    const back = await this.gateway.cancel(id);
    if (!back) throw new NotFoundException(`No test checkout ${id}`);
    res.redirect(303, back);
  }

  /** The session, when `token` is its owner's capability; else 404 as for an unknown id. */
  private async ownedSession(id: string, token: unknown) {
    const session = await this.gateway.session(id);
    if (!session || !(await this.tokens.verify(token, { kind: 'checkout', sessionId: session.id, userId: session.userId }))) {
      throw new NotFoundException(`No test checkout ${id}`);
    }
    return session;
  }

  private async requirePortal(customerId: string, token: unknown): Promise<void> {
    if (!(await this.tokens.verify(token, { kind: 'portal', customerId }))) throw new NotFoundException();
  }

  private appUrl(): string {
    return this.config.webOrigins[0] ?? this.config.publicApiUrl;
  }

  /** The forms post here and redirect to the web app's origin: CSP form-action must allow it. */
  private allowFormsBackToTheApp(res: Response): void {
    const origins = ["'self'", ...this.config.webOrigins].join(' ');
    res.setHeader('Content-Security-Policy', `default-src 'self'; style-src 'self' 'unsafe-inline'; form-action ${origins}; frame-ancestors 'none'; base-uri 'self'`);
  }
}
