import { randomBytes } from 'node:crypto';
import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { type LocalCheckoutStore, LocalPaymentGateway, StripePaymentGateway, StripeWebhookVerifier, createStripeClient } from '@kiln/adapters';
import {
  BuyAddOnCredits,
  CancelSubscription,
  ChangePlan,
  type Clock,
  ForceUpdateSubscription,
  GrantAddOnCredits,
  GrantMonthlyAllowance,
  HandlePaymentEvent,
  type IdGenerator,
  ListInvoices,
  OpenCustomerPortal,
  type PaymentGateway,
  type PaymentWebhookVerifier,
  StartCheckout,
  err,
  invalidWebhook,
} from '@kiln/domain';
import { useCase } from '../common/use-case.provider.js';
import type { AppConfig } from '../config.js';
import { CreditsModule } from '../credits/credits.module.js';
import {
  CLOCK,
  CREDIT_LEDGER,
  ID_GENERATOR,
  LOCAL_CHECKOUT_STORE,
  PAYMENT_GATEWAY,
  PAYMENT_WEBHOOK_VERIFIER,
  PLAN_CATALOG,
  PROCESSED_PAYMENT_EVENTS,
  PROFILE_REPOSITORY,
  SUBSCRIPTION_STATE_VERSIONS,
  UNIT_OF_WORK,
  ACCOUNT_ACTIVITY,
} from '../tokens.js';
import { DevBillingController } from './dev-billing.controller.js';
import { LocalCheckoutController } from './local-checkout.controller.js';
import { LocalCheckoutTokens } from './local-checkout-tokens.js';
import { PaymentsController } from './payments.controller.js';
import { SignedLocalGateway } from './signed-local-gateway.js';
import { WebhookController } from './webhook.controller.js';

/** Payments in production without STRIPE_SECRET_KEY: every call fails (a logged 500), nothing is given away. */
class UnconfiguredPaymentGateway implements PaymentGateway {
  private fail(): Promise<never> {
    return Promise.reject(new Error('Payments are not configured: set STRIPE_SECRET_KEY (the local test checkout is off in production)'));
  }
  createCheckoutSession = () => this.fail();
  createCustomerPortal = () => this.fail();
  cancelSubscription = () => this.fail();
  fetchSubscription = () => this.fail();
  findLatestSubscription = () => this.fail();
  createAddOnPayment = () => this.fail();
  listInvoices = () => this.fail();
}
const unconfiguredGateway = new UnconfiguredPaymentGateway();

/** Without a webhook secret every delivery is refused (400). */
const noWebhooks: PaymentWebhookVerifier = { verify: () => err(invalidWebhook('Webhooks are not configured (STRIPE_WEBHOOK_SECRET)')) };

/**
 * Subscriptions and add-on credits (SPEC §7 Payment). The gateway is Stripe when
 * STRIPE_SECRET_KEY is set, else — outside production — the local test checkout served by
 * LocalCheckoutController, whose payments go through the same HandlePaymentEvent as webhooks.
 */
@Module({})
export class PaymentsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const appUrl = config.webOrigins[0] ?? config.publicApiUrl;
    const local = config.payments.kind === 'local' && config.nodeEnv !== 'production';
    const gatewayProviders: Provider[] =
      config.payments.kind === 'stripe'
        ? (() => {
            const stripeConfig = { secretKey: config.payments.secretKey, prices: config.payments.prices, appUrl };
            const client = createStripeClient(stripeConfig);
            return [
              { provide: PAYMENT_GATEWAY, useValue: new StripePaymentGateway(stripeConfig, client) },
              { provide: PAYMENT_WEBHOOK_VERIFIER, useValue: new StripeWebhookVerifier(client, config.payments.webhookSecret, config.payments.prices) },
            ];
          })()
        : [
            local
              ? {
                  provide: LocalPaymentGateway,
                  // Its sessions and subscriptions in the persistence module's store (PostgreSQL: they survive restarts).
                  useFactory: (clock: Clock, ids: IdGenerator, store: LocalCheckoutStore) => new LocalPaymentGateway({ apiUrl: config.publicApiUrl, appUrl }, clock, ids, store),
                  inject: [CLOCK, ID_GENERATOR, LOCAL_CHECKOUT_STORE],
                }
              : { provide: LocalPaymentGateway, useValue: null },
            // The owner's capability on every local checkout link: a key per process (links die with it).
            { provide: LocalCheckoutTokens, useFactory: (clock: Clock) => new LocalCheckoutTokens(new Uint8Array(randomBytes(32)), clock), inject: [CLOCK] },
            local
              ? {
                  provide: PAYMENT_GATEWAY,
                  useFactory: (gateway: LocalPaymentGateway, tokens: LocalCheckoutTokens) => new SignedLocalGateway(gateway, tokens),
                  inject: [LocalPaymentGateway, LocalCheckoutTokens],
                }
              : { provide: PAYMENT_GATEWAY, useValue: unconfiguredGateway },
            { provide: PAYMENT_WEBHOOK_VERIFIER, useValue: noWebhooks },
          ];
    return {
      module: PaymentsModule,
      imports: [CreditsModule],
      controllers: [PaymentsController, WebhookController, ...(local ? [LocalCheckoutController, DevBillingController] : [])],
      providers: [
        ...gatewayProviders,
        useCase(ChangePlan, [PROFILE_REPOSITORY, PLAN_CATALOG, GrantMonthlyAllowance, UNIT_OF_WORK, CLOCK, ID_GENERATOR, ACCOUNT_ACTIVITY]),
        useCase(GrantAddOnCredits, [PROFILE_REPOSITORY, CREDIT_LEDGER, CLOCK, ACCOUNT_ACTIVITY]),
        useCase(HandlePaymentEvent, [PROCESSED_PAYMENT_EVENTS, SUBSCRIPTION_STATE_VERSIONS, PROFILE_REPOSITORY, PLAN_CATALOG, ChangePlan, GrantAddOnCredits, UNIT_OF_WORK]),
        useCase(StartCheckout, [PROFILE_REPOSITORY, PLAN_CATALOG, PAYMENT_GATEWAY, ID_GENERATOR]),
        useCase(BuyAddOnCredits, [PROFILE_REPOSITORY, PAYMENT_GATEWAY, ID_GENERATOR]),
        useCase(OpenCustomerPortal, [PROFILE_REPOSITORY, PAYMENT_GATEWAY, ID_GENERATOR]),
        useCase(ListInvoices, [PROFILE_REPOSITORY, PAYMENT_GATEWAY]),
        useCase(CancelSubscription, [PROFILE_REPOSITORY, PAYMENT_GATEWAY, HandlePaymentEvent, UNIT_OF_WORK, CLOCK]),
        useCase(ForceUpdateSubscription, [PROFILE_REPOSITORY, PLAN_CATALOG, PAYMENT_GATEWAY, HandlePaymentEvent, UNIT_OF_WORK, CLOCK]),
      ],
      // Account deletion cancels the subscription at period end first (AccountsModule).
      exports: [CancelSubscription],
    };
  }
}
