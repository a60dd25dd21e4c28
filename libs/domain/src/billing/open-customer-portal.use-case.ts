import type { PaymentGateway } from './payment-gateway.port.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { IdGenerator } from '../shared/ids.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { type NoCustomer, noCustomer } from './billing.errors.js';

/** POST /api/payment/create-customer-portal: needs the profile's customer_id (SPEC §2, §8). */
export class OpenCustomerPortal {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly gateway: PaymentGateway,
    private readonly ids: IdGenerator,
  ) {}

  async execute(input: { userId: string }): Promise<Result<{ link: string }, NoCustomer | ProfileNotFound>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    if (!profile.customerId) return err(noCustomer());
    const link = await this.gateway.createCustomerPortal({ customerId: profile.customerId, idempotencyKey: `portal:${profile.id}:${this.ids.next()}` });
    return ok({ link });
  }
}
