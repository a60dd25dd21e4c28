// SPEC §7 payment calls. The endpoints arrive with the billing issue; until then they answer
// 404 and the view-models show the SPEC's error toasts.
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export interface PaymentsApi {
  /** POST /api/payment/create-checkout-session {plan_id} → the checkout page's URL. */
  createCheckoutSession(planId: string): Promise<string>;
  /** POST /api/payment/create-customer-portal → the portal's URL ({link:{link}}). */
  createCustomerPortal(): Promise<string>;
  /** POST /api/payment/create-payment-link → the add-on credit pack's payment link. */
  createPaymentLink(): Promise<string>;
}

@injectable()
export class HttpPaymentsApi implements PaymentsApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  async createCheckoutSession(planId: string): Promise<string> {
    const reply = await this.http.post<{ url?: unknown }>('/api/payment/create-checkout-session', { plan_id: planId });
    return requireUrl(reply.url);
  }

  async createCustomerPortal(): Promise<string> {
    const reply = await this.http.post<{ link?: { link?: unknown } }>('/api/payment/create-customer-portal');
    return requireUrl(reply.link?.link);
  }

  async createPaymentLink(): Promise<string> {
    const reply = await this.http.post<{ paymentLink?: unknown }>('/api/payment/create-payment-link');
    return requireUrl(reply.paymentLink);
  }
}

function requireUrl(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error('Request failed');
  return value;
}
