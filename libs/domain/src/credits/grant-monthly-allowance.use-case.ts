import { cycleKey } from './ledger-keys.js';
import type { PlanCatalog } from '../plans/plan-catalog.js';
import { type Profile, allowanceAnchor } from '../profiles/profile.entity.js';
import { type ProfileNotFound, profileNotFound } from '../profiles/profile.errors.js';
import type { ProfileRepository } from '../profiles/profile-repository.port.js';
import type { Clock } from '../shared/clock.port.js';
import { type Result, err, ok } from '../shared/result.js';
import { cycleContaining } from './allowance-cycle.js';
import { monthlyAllowance } from './allowance.js';
import type { CycleDecision } from './credit-account.js';
import type { CreditError } from './credit.errors.js';
import type { CreditLedger } from './credit-ledger.port.js';

export interface GrantMonthlyAllowanceInput {
  readonly userId: string;
  /**
   * The cycle's idempotency key. Omitted for the lazy roll-forward (the cycle's start and
   * allowance make the key); a plan change passes its own, so returning to an allowance the
   * same cycle start already had still resets it.
   */
  readonly key?: string;
}

/**
 * Makes sure the user's current allowance cycle has been granted: the cycle containing now,
 * counted from the profile's anchor, with the allowance of the profile's plan. Safe to call
 * on every request and concurrently — the cycle's start is its idempotency key, and an older
 * or identical cycle changes nothing. Starting a cycle resets the monthly bucket only.
 */
export class GrantMonthlyAllowance {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly ledger: CreditLedger,
    private readonly plans: PlanCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(input: GrantMonthlyAllowanceInput): Promise<Result<CycleDecision, ProfileNotFound | CreditError>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    return this.forProfile(profile, input.key);
  }

  /** The same, for a caller that has just loaded the profile. */
  async forProfile(profile: Profile, key?: string): Promise<Result<CycleDecision, CreditError>> {
    const now = this.clock.now();
    const window = cycleContaining(allowanceAnchor(profile), now);
    const allowance = monthlyAllowance(this.plans.resolve(profile.subscriptionPlan), profile);
    if (key === undefined) {
      // Nearly every call finds the cycle already current: a plain read answers it without the
      // ledger's locking write (which would decide the same no-op).
      const { cycle } = await this.ledger.summary(profile.id);
      if (cycle && (cycle.start.getTime() > window.start.getTime() || (cycle.start.getTime() === window.start.getTime() && cycle.allowance === allowance))) {
        return ok({ outcome: cycle.start.getTime() > window.start.getTime() ? 'stale' : 'current', entry: null, replayed: false });
      }
    }
    const decision = await this.ledger.startCycle(profile.id, {
      key: key ?? cycleKey(window.start, allowance),
      at: now,
      start: window.start,
      end: window.end,
      allowance,
    });
    return decision.ok ? ok(decision.value) : decision;
  }
}
