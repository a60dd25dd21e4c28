// SPEC §7 payment calls, all five.
import type { Currency, ProMultiplier } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

/** POST /api/payment/force-update-subscription: the subscription as the provider now reports it. */
export interface ForceUpdateResultDto {
  readonly status: string;
  readonly message: string | null;
  readonly plan: {
    readonly id: string;
    /** Major units (SPEC shows 25, 2499). */
    readonly price: number;
    readonly currency: string;
    readonly billing_interval: string | null;
  } | null;
  readonly subscription: unknown;
}

/** GET /api/payment/invoices: one line of the billing history. */
export interface InvoiceDto {
  readonly id: string;
  readonly number: string | null;
  readonly status: string;
  /** Integer minor units of `currency`. */
  readonly amount_minor: number;
  readonly currency: string;
  readonly description: string;
  readonly created_at: string;
  readonly url: string | null;
}

export interface PaymentsApi {
  /**
   * POST /api/payment/create-checkout-session {plan_id, currency} → the checkout page's URL.
   * `currency`: the one the page showed; the server refuses (409) to charge another.
   * `multiplier`: 1x (default), 2x or 3x the plan (SPEC §3); the price charged is multiplied.
   */
  createCheckoutSession(planId: string, currency?: Currency, multiplier?: ProMultiplier): Promise<string>;
  /** POST /api/payment/create-customer-portal → the portal's URL ({link:{link}}). */
  createCustomerPortal(): Promise<string>;
  /** POST /api/payment/create-payment-link → the add-on credit pack's payment link. */
  createPaymentLink(): Promise<string>;
  /** POST /api/cancel-subscription {subscriptionId} → the server's message, if any. */
  cancelSubscription(subscriptionId: string): Promise<{ readonly message: string | null }>;
  /** POST /api/payment/force-update-subscription (no body). */
  forceUpdateSubscription(): Promise<ForceUpdateResultDto>;
  /** GET /api/payment/invoices: the billing history, newest first. */
  listInvoices(): Promise<readonly InvoiceDto[]>;
}

/** The portal reply carried no link: SPEC §8. */
export const PORTAL_NO_LINK = 'Unable to access subscription management portal.';

@injectable()
export class HttpPaymentsApi implements PaymentsApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  async createCheckoutSession(planId: string, currency?: Currency, multiplier?: ProMultiplier): Promise<string> {
    const body = { plan_id: planId, ...(currency === undefined ? {} : { currency }), ...(multiplier === undefined || multiplier === 1 ? {} : { multiplier }) };
    const reply = await this.http.post<{ url?: unknown }>('/api/payment/create-checkout-session', body);
    return requireUrl(reply?.url);
  }

  async createCustomerPortal(): Promise<string> {
    const reply = await this.http.post<{ link?: { link?: unknown } }>('/api/payment/create-customer-portal');
    return requireUrl(reply?.link?.link, PORTAL_NO_LINK);
  }

  async createPaymentLink(): Promise<string> {
    const reply = await this.http.post<{ paymentLink?: unknown }>('/api/payment/create-payment-link');
    return requireUrl(reply?.paymentLink);
  }

  async cancelSubscription(subscriptionId: string): Promise<{ readonly message: string | null }> {
    const reply = await this.http.post<{ message?: unknown } | undefined>('/api/cancel-subscription', { subscriptionId });
    const message = reply?.message;
    return { message: typeof message === 'string' && message.trim() !== '' ? message : null };
  }

  async forceUpdateSubscription(): Promise<ForceUpdateResultDto> {
    const reply = await this.http.post<Partial<ForceUpdateResultDto> | undefined>('/api/payment/force-update-subscription');
    return {
      status: typeof reply?.status === 'string' ? reply.status : '',
      message: typeof reply?.message === 'string' ? reply.message : null,
      plan: reply?.plan ?? null,
      subscription: reply?.subscription ?? null,
    };
  }

  async listInvoices(): Promise<readonly InvoiceDto[]> {
    const reply = await this.http.get<{ invoices?: unknown } | undefined>('/api/payment/invoices');
    if (!Array.isArray(reply?.invoices)) throw new Error('Request failed');
    return reply.invoices as InvoiceDto[];
  }
}

function requireUrl(value: unknown, message = 'Request failed'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new Error(message);
  return value;
}
