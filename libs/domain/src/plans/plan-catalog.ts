import { type Result, err, ok } from '../shared/result.js';
import { type PlanConfigError, invalidPlanConfig } from './plan.errors.js';
import {
  FREE_PLAN,
  PRO_ANNUAL_PLAN,
  PRO_MONTHLY_PLAN,
  type Plan,
  type PlanId,
  UPPER_TIER_IDS,
  type UpperTierConfig,
  upperTierPlan,
} from './plan.entity.js';

const isRawLimit = (v: unknown): boolean =>
  v === 'unlimited' || v === -1 || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
const isMinorAmount = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The plans on offer. Unknown ids resolve to free (SPEC §4 "Plan resolution"). */
export class PlanCatalog {
  private readonly byId: ReadonlyMap<string, Plan>;

  private constructor(plans: readonly Plan[]) {
    this.byId = new Map(plans.map((p) => [p.id, p]));
  }

  /** The standard catalog plus any configured upper tiers, each validated. */
  static create(upperTiers: readonly UpperTierConfig[] = []): Result<PlanCatalog, PlanConfigError> {
    const seen = new Set<string>();
    for (const [i, tier] of upperTiers.entries()) {
      const at = `upperTiers[${i}]`;
      if (!(UPPER_TIER_IDS as readonly string[]).includes(tier.id)) {
        return err(invalidPlanConfig(`${at}.id`, `Upper tier id must be one of ${UPPER_TIER_IDS.join(', ')}`));
      }
      if (seen.has(tier.id)) return err(invalidPlanConfig(`${at}.id`, `Upper tier ${tier.id} is configured twice`));
      seen.add(tier.id);
      if (!tier.name?.trim()) return err(invalidPlanConfig(`${at}.name`, 'Upper tier needs a name'));
      if (tier.interval !== 'monthly' && tier.interval !== 'annual') {
        return err(invalidPlanConfig(`${at}.interval`, 'Interval must be monthly or annual'));
      }
      for (const field of ['priceUsdMinor', 'priceInrMinor'] as const) {
        if (!isMinorAmount(tier[field])) {
          return err(invalidPlanConfig(`${at}.${field}`, 'Prices are non-negative integer minor units'));
        }
      }
      for (const field of ['promptsPerMonth', 'privateProjects', 'publishedProjects'] as const) {
        if (!isRawLimit(tier[field])) {
          return err(invalidPlanConfig(`${at}.${field}`, 'A limit is a non-negative integer, -1 or "unlimited"'));
        }
      }
    }
    return ok(new PlanCatalog([FREE_PLAN, PRO_MONTHLY_PLAN, PRO_ANNUAL_PLAN, ...upperTiers.map(upperTierPlan)]));
  }

  /** The catalog with only the standard plans. */
  static standard(): PlanCatalog {
    return new PlanCatalog([FREE_PLAN, PRO_MONTHLY_PLAN, PRO_ANNUAL_PLAN]);
  }

  list(): readonly Plan[] {
    return [...this.byId.values()];
  }

  /** The plan with exactly this id, if offered. */
  find(id: string | null | undefined): Plan | undefined {
    return id == null ? undefined : this.byId.get(id);
  }

  /** The plan with this id, or free when the id is unknown or missing. */
  resolve(id: string | null | undefined): Plan {
    return this.find(id) ?? FREE_PLAN;
  }

  has(id: string): id is PlanId {
    return this.byId.has(id);
  }
}
