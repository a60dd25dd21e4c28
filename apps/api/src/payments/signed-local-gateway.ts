import type { LocalPaymentGateway } from '@kiln/adapters';
import type { AddOnPaymentRequest, CheckoutRequest, IdempotentPaymentCall, Invoice, PaymentCustomer, PaymentGateway, SubscriptionSnapshot } from '@kiln/domain';
import type { LocalCheckoutTokens } from './local-checkout-tokens.js';

/**
 * The local gateway as the use cases see it: the same calls, but every page link it answers
 * carries the owner's capability (LocalCheckoutTokens), since only the signed-in owner is ever
 * handed one. The pages themselves are LocalCheckoutController.
 */
export class SignedLocalGateway implements PaymentGateway {
  constructor(
    private readonly local: LocalPaymentGateway,
    private readonly tokens: LocalCheckoutTokens,
  ) {}

  async createCheckoutSession(request: CheckoutRequest): Promise<string> {
    return this.checkoutLink(await this.local.createCheckoutSession(request), request.customer);
  }

  async createAddOnPayment(request: AddOnPaymentRequest): Promise<string> {
    return this.checkoutLink(await this.local.createAddOnPayment(request), request.customer);
  }

  async createCustomerPortal(request: { readonly customerId: string } & IdempotentPaymentCall): Promise<string> {
    return this.tokens.link(await this.local.createCustomerPortal(request), { kind: 'portal', customerId: request.customerId });
  }

  cancelSubscription(request: { readonly subscriptionId: string } & IdempotentPaymentCall): Promise<SubscriptionSnapshot> {
    return this.local.cancelSubscription(request);
  }

  fetchSubscription(subscriptionId: string): Promise<SubscriptionSnapshot> {
    return this.local.fetchSubscription(subscriptionId);
  }

  findLatestSubscription(customer: PaymentCustomer): Promise<SubscriptionSnapshot | null> {
    return this.local.findLatestSubscription(customer);
  }

  listInvoices(customerId: string): Promise<readonly Invoice[]> {
    return this.local.listInvoices(customerId);
  }

  /** The session id is the link's last path segment (`…/local-checkout/<id>`). */
  private checkoutLink(url: string, customer: PaymentCustomer): Promise<string> {
    const sessionId = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return this.tokens.link(url, { kind: 'checkout', sessionId, userId: customer.userId });
  }
}
