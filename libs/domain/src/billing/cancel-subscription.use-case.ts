import type { PaymentGateway } from './payment-gateway.port.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { UnitOfWork } from '../shared/unit-of-work.port.js';
import { type NoSubscription, type NotYourSubscription, noSubscription, notYourSubscription } from './billing.errors.js';
import type { HandlePaymentEvent, PaymentEventError } from './handle-payment-event.use-case.js';

/**
 * POST /api/cancel-subscription: cancels at the end of the paid period. The plan stays until
 * then; the provider's deletion event (or the local checkout's period end) moves it to free.
 */
export class CancelSubscription {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly gateway: PaymentGateway,
    private readonly events: HandlePaymentEvent,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    userId: string;
    subscriptionId: string;
  }): Promise<Result<{ message: string }, NoSubscription | NotYourSubscription | ProfileNotFound | PaymentEventError>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    if (!profile.subscriptionId) return err(noSubscription());
    if (profile.subscriptionId !== input.subscriptionId) return err(notYourSubscription(input.subscriptionId));
    const snapshot = await this.gateway.cancelSubscription({ subscriptionId: profile.subscriptionId, idempotencyKey: `cancel:${profile.subscriptionId}` });
    const at = this.clock.now();
    const applied = await this.uow.run(() => this.events.applySubscription(profile.id, snapshot, at, `cancel:${snapshot.id}:${at.toISOString()}`));
    if (!applied.ok) return applied;
    return ok({ message: 'Subscription will be canceled at the end of the billing period' });
  }
}
