import { addOnGrantKey } from './ledger-keys.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import { type AccountActivityListener, NO_ACCOUNT_ACTIVITY_LISTENER } from '../shared/account-activity.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err } from '../shared/result.js';
import type { Decision } from './credit-account.js';
import { ADDON_PACK_CREDITS } from './credit.constants.js';
import { type CreditError, invalidCreditAmount } from './credit.errors.js';
import type { CreditLedger } from './credit-ledger.port.js';
import type { GrantEntry } from './ledger-entry.js';

export interface GrantAddOnCreditsInput {
  readonly userId: string;
  readonly packs: number;
  /** The payment's id: one payment grants its packs once. */
  readonly paymentKey: string;
}

/** Adds purchased add-on packs (500 credits each, never expiring) to the add-on bucket. */
export class GrantAddOnCredits {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly ledger: CreditLedger,
    private readonly clock: Clock,
    /** Told of a purchase once its credits are granted (not on a replayed payment). */
    private readonly activity: AccountActivityListener = NO_ACCOUNT_ACTIVITY_LISTENER,
  ) {}

  async execute(input: GrantAddOnCreditsInput): Promise<Result<Decision<GrantEntry>, CreditError | ProfileNotFound>> {
    if (!Number.isSafeInteger(input.packs) || input.packs < 1) return err(invalidCreditAmount(input.packs));
    if (!(await this.profiles.findById(input.userId))) return err(profileNotFound(input.userId));
    const at = this.clock.now();
    const granted = await this.ledger.grant(input.userId, {
      key: addOnGrantKey(input.paymentKey),
      at,
      bucket: 'addon',
      amount: input.packs * ADDON_PACK_CREDITS,
      reason: 'addon_purchase',
    });
    if (granted.ok && !granted.value.replayed) await this.activity.record({ userId: input.userId, kind: 'purchased', at });
    return granted;
  }
}
