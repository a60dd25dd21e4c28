import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type PaymentProviderUnavailable, paymentProviderUnavailable } from './billing.errors.js';
import type { Invoice } from './invoice.js';
import type { PaymentGateway } from './payment-gateway.port.js';

/**
 * GET /api/payment/invoices: the billing history, newest first, from the payment provider (the
 * local checkout's own in test mode). Nobody has paid anything before a customer exists, so no
 * customer is an empty history, not an error; a provider that cannot be reached is a 503.
 */
export class ListInvoices {
  constructor(
    private readonly profiles: Pick<ProfileRepository, 'findById'>,
    private readonly gateway: Pick<PaymentGateway, 'listInvoices'>,
  ) {}

  async execute(input: { readonly userId: string }): Promise<Result<readonly Invoice[], ProfileNotFound | PaymentProviderUnavailable>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    if (!profile.customerId) return ok([]);
    try {
      const invoices = await this.gateway.listInvoices(profile.customerId);
      return ok([...invoices].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()));
    } catch {
      return err(paymentProviderUnavailable());
    }
  }
}
