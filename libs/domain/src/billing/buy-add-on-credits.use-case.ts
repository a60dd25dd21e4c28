import { addOnPurchaseKey } from '../credits/ledger-keys.js';
import type { PaymentGateway } from './payment-gateway.port.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, err, ok } from '../shared/result.js';

/** POST /api/payment/create-payment-link: a one-time payment page for one add-on pack (500 credits). */
export class BuyAddOnCredits {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly gateway: PaymentGateway,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { userId: string }): Promise<Result<{ paymentLink: string }, ProfileNotFound>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    const paymentLink = await this.gateway.createAddOnPayment({
      currency: profile.preferredCurrency,
      customer: { userId: profile.id, email: profile.email, customerId: profile.customerId },
      idempotencyKey: addOnPurchaseKey(profile.id, this.ids.next()),
    });
    return ok({ paymentLink });
  }
}
