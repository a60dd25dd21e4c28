import type { DomainError } from '../shared/domain-error.js';

export type NoCustomer = DomainError<'BILLING.NO_CUSTOMER'>;
export const noCustomer = (): NoCustomer => ({ code: 'BILLING.NO_CUSTOMER', message: 'No active subscription found. Please subscribe first.' });

export type NoSubscription = DomainError<'BILLING.NO_SUBSCRIPTION'>;
export const noSubscription = (): NoSubscription => ({ code: 'BILLING.NO_SUBSCRIPTION', message: 'No active subscription found. Please subscribe first.' });

/** The subscription named is not the caller's. */
export type NotYourSubscription = DomainError<'BILLING.NOT_YOUR_SUBSCRIPTION'> & { readonly subscriptionId: string };
export const notYourSubscription = (subscriptionId: string): NotYourSubscription => ({
  code: 'BILLING.NOT_YOUR_SUBSCRIPTION',
  subscriptionId,
  message: 'Unable to verify your subscription. Please refresh and try again.',
});

/** Checkout for a plan nothing is billed for (free) or that has no price. */
export type NotPurchasable = DomainError<'BILLING.NOT_PURCHASABLE'> & { readonly planId: string };
export const notPurchasable = (planId: string): NotPurchasable => ({
  code: 'BILLING.NOT_PURCHASABLE',
  planId,
  message: `The plan ${planId} cannot be bought`,
});

/** The page showed a price in one currency, but the profile is now charged in another (decided meanwhile). */
export type CurrencyChanged = DomainError<'BILLING.CURRENCY_CHANGED'> & { readonly currency: string };
export const currencyChanged = (currency: string): CurrencyChanged => ({
  code: 'BILLING.CURRENCY_CHANGED',
  currency,
  message: `Prices are now shown in ${currency}. Please review the price and try again.`,
});

/** The payment provider did not answer (network, outage): try again later (503). The vendor's words stay on the server. */
export type PaymentProviderUnavailable = DomainError<'BILLING.PROVIDER_UNAVAILABLE'>;
export const paymentProviderUnavailable = (): PaymentProviderUnavailable => ({
  code: 'BILLING.PROVIDER_UNAVAILABLE',
  message: 'The payment provider could not be reached. Please try again in a moment.',
});

export type BillingError = PaymentProviderUnavailable | NoCustomer | NoSubscription | NotYourSubscription | NotPurchasable | CurrencyChanged;
