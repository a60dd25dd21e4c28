/** How a provider invoice stands (Stripe's statuses; the local checkout only makes paid ones). */
export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['draft', 'open', 'paid', 'void', 'uncollectible'];

/** One line of the billing history: an invoice at the payment provider, in Kiln's words. */
export interface Invoice {
  readonly id: string;
  /** The provider's invoice number, when it gave one. */
  readonly number: string | null;
  readonly status: InvoiceStatus;
  /** Integer minor units (cents, paise) of `currency`. */
  readonly amountMinor: number;
  /** ISO 4217, upper case ('USD', 'INR'). */
  readonly currency: string;
  /** What was bought: 'Pro Monthly', '500 add-on credits'. */
  readonly description: string;
  readonly createdAt: Date;
  /** The provider's page for the invoice (view, pay, download), when there is one. */
  readonly url: string | null;
}

/** The most invoices the billing history shows. */
export const INVOICE_HISTORY_LIMIT = 24;
