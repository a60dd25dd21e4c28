import { referralGrantKeys } from '../credits/ledger-keys.js';
import { REFERRAL_BONUS_CREDITS } from '../credits/credit.constants.js';
import type { CreditError } from '../credits/credit.errors.js';
import type { CreditLedger } from '../credits/credit-ledger.port.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import type { UnitOfWork } from '../shared/unit-of-work.port.js';
import { parseReferralCode } from './referral-code.js';
import {
  type AlreadyReferred,
  type CircularReferral,
  type InvalidReferralCode,
  type SelfReferral,
  type UnknownReferralCode,
  alreadyReferred,
  circularReferral,
  selfReferral,
  unknownReferralCode,
} from './referral.errors.js';

export interface ApplyReferralInput {
  /** The user who signed up with the link. */
  readonly refereeId: string;
  readonly code: string;
}

export interface AppliedReferral {
  readonly referrerId: string;
  /** Credits each side received. */
  readonly bonus: number;
}

export type ApplyReferralError =
  | InvalidReferralCode
  | UnknownReferralCode
  | SelfReferral
  | AlreadyReferred
  | CircularReferral
  | ProfileNotFound
  | CreditError;


/**
 * Applies a referral code: records the referrer on the referee (only if none is recorded)
 * and grants both sides 25 referral credits. A retry after a partial failure completes the
 * grants; applying again once both are paid is refused.
 */
export class ApplyReferral {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly ledger: CreditLedger,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: ApplyReferralInput): Promise<Result<AppliedReferral, ApplyReferralError>> {
    const code = parseReferralCode(input.code);
    if (!code.ok) return code;
    const referee = await this.profiles.findById(input.refereeId);
    if (!referee) return err(profileNotFound(input.refereeId));
    const referrer = await this.profiles.findByReferralCode(code.value);
    if (!referrer) return err(unknownReferralCode());
    if (referrer.id === referee.id) return err(selfReferral());
    if (referrer.referredBy === referee.id) return err(circularReferral());
    if (referee.referredBy !== null && referee.referredBy !== referrer.id) return err(alreadyReferred());

    return this.uow.run(async () => {
      const now = this.clock.now();
      const recorded = await this.profiles.recordReferrer(referee.id, referrer.id, now);
      if (recorded.outcome === 'circular') return err(circularReferral());
      // Already referred by this same referrer: a retry, which may complete missing grants below.
      if (recorded.outcome === 'already_referred' && recorded.referredBy !== referrer.id) return err(alreadyReferred());
      const keys = referralGrantKeys(referee.id);
      const bonus = { at: now, bucket: 'referral' as const, amount: REFERRAL_BONUS_CREDITS, reason: 'referral_bonus' as const };
      const toReferee = await this.ledger.grant(referee.id, { ...bonus, key: keys.referee });
      if (!toReferee.ok) return toReferee;
      const toReferrer = await this.ledger.grant(referrer.id, { ...bonus, key: keys.referrer });
      if (!toReferrer.ok) return toReferrer;
      if (toReferee.value.replayed && toReferrer.value.replayed) return err(alreadyReferred());
      return ok({ referrerId: referrer.id, bonus: REFERRAL_BONUS_CREDITS });
    });
  }
}
