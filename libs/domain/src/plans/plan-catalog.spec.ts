import { describe, expect, it } from '@jest/globals';
import { UNLIMITED, isUnlimited, limitToNumber, limited, parseLimit } from '../shared/limit.js';
import type { Result } from '../shared/result.js';
import { FREE_PLAN, PRO_ANNUAL_PLAN, PRO_MONTHLY_PLAN, type UpperTierConfig, billingIntervalLabel, isLimitlessPlan, isPaidPlan } from './plan.entity.js';
import type { PlanConfigError } from './plan.errors.js';
import { PlanCatalog } from './plan-catalog.js';

const starter: UpperTierConfig = {
  id: 'starter',
  name: 'Starter',
  interval: 'monthly',
  priceUsdMinor: 10_00,
  priceInrMinor: 999_00,
  promptsPerMonth: 10,
  privateProjects: 5,
  publishedProjects: 2,
};

function unwrap<T, E>(r: Result<T, E>): T {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
}

function expectConfigError(tiers: readonly unknown[], field: string): PlanConfigError {
  const r = PlanCatalog.create(tiers as readonly UpperTierConfig[]);
  expect(r.ok).toBe(false);
  if (r.ok) throw new Error('unreachable');
  expect(r.error.code).toBe('PLANS.INVALID_CONFIG');
  expect(r.error.field).toBe(field);
  expect(r.error.message.length).toBeGreaterThan(0);
  return r.error;
}

describe('PlanCatalog — the standard plans (SPEC §3, §6, §9)', () => {
  const catalog = PlanCatalog.standard();

  it('offers exactly free, pro_monthly and pro_annual', () => {
    expect(catalog.list().map((p) => p.id)).toEqual(['free', 'pro_monthly', 'pro_annual']);
  });

  it('free: price 0, 5 prompts a month, 0 published projects, basic support, not billed', () => {
    const free = catalog.resolve('free');
    expect(free).toBe(FREE_PLAN);
    expect(free.prices).toEqual({ USD: 0, INR: 0 });
    expect(free.features.promptsPerMonth).toEqual(limited(5));
    expect(free.features.publishedProjects).toEqual(limited(0));
    expect(free.features.supportLevel).toBe('basic');
    expect(free.interval).toBeNull();
    expect(isPaidPlan(free)).toBe(false);
  });

  it('pro_monthly: 25 USD = 2500 minor, 2499 INR = 249900 minor, billed monthly', () => {
    const pro = catalog.resolve('pro_monthly');
    expect(pro).toBe(PRO_MONTHLY_PLAN);
    expect(pro.prices).toEqual({ USD: 2500, INR: 249900 });
    expect(pro.interval).toBe('monthly');
    expect(isPaidPlan(pro)).toBe(true);
  });

  it('pro_annual: 240 USD = 24000 minor, 24000 INR = 2400000 minor, billed yearly', () => {
    const annual = catalog.resolve('pro_annual');
    expect(annual).toBe(PRO_ANNUAL_PLAN);
    expect(annual.prices).toEqual({ USD: 24000, INR: 2400000 });
    expect(annual.interval).toBe('annual');
  });

  it.each(['pro_monthly', 'pro_annual'])('%s: 25 prompts, unlimited private and published projects, priority email', (id) => {
    const f = catalog.resolve(id).features;
    expect(f.promptsPerMonth).toEqual(limited(25));
    expect(isUnlimited(f.privateProjects)).toBe(true);
    expect(isUnlimited(f.publishedProjects)).toBe(true);
    expect(f.supportLevel).toBe('priority_email');
  });

  it('team members and public projects are 0 on every plan, configured tiers included', () => {
    const withTiers = unwrap(PlanCatalog.create([starter, { ...starter, id: 'premium', name: 'Premium', publishedProjects: 'unlimited' }]));
    for (const plan of [...catalog.list(), ...withTiers.list()]) {
      expect(plan.features.teamMembers).toEqual(limited(0));
      expect(plan.features.publicProjects).toEqual(limited(0));
    }
    expect(withTiers.list()).toHaveLength(5);
  });

  it('prices are integer minor units everywhere', () => {
    for (const plan of catalog.list()) {
      expect(Number.isSafeInteger(plan.prices.USD)).toBe(true);
      expect(Number.isSafeInteger(plan.prices.INR)).toBe(true);
    }
  });

  it('plans are frozen', () => {
    expect(Object.isFrozen(catalog.resolve('free'))).toBe(true);
    expect(Object.isFrozen(catalog.resolve('pro_monthly'))).toBe(true);
  });
});

describe('PlanCatalog — resolution (SPEC §4 "unknown plan falls back to free")', () => {
  const catalog = PlanCatalog.standard();

  it.each([['gold'], [''], ['FREE'], ['Pro_Monthly'], [null], [undefined]])('resolve(%p) is the free plan', (id) => {
    expect(catalog.resolve(id).id).toBe('free');
  });

  it.each([['gold'], [''], [null], [undefined], ['basic'], ['starter'], ['premium']])('find(%p) is undefined', (id) => {
    expect(catalog.find(id)).toBeUndefined();
  });

  it('find and resolve return a known plan by exact id', () => {
    expect(catalog.find('pro_annual')?.id).toBe('pro_annual');
    expect(catalog.resolve('pro_monthly').id).toBe('pro_monthly');
    expect(catalog.has('pro_monthly')).toBe(true);
    expect(catalog.has('starter')).toBe(false);
  });
});

describe('PlanCatalog.create — configured upper tiers', () => {
  it('with no tiers is the standard catalog', () => {
    expect(unwrap(PlanCatalog.create()).list().map((p) => p.id)).toEqual(['free', 'pro_monthly', 'pro_annual']);
    expect(unwrap(PlanCatalog.create([])).list()).toHaveLength(3);
  });

  it('adds basic, starter and premium only when configured, with their configured allowances', () => {
    const catalog = unwrap(
      PlanCatalog.create([
        { ...starter, id: 'basic', name: 'Basic', publishedProjects: 1, supportLevel: 'basic' },
        starter,
      ]),
    );
    expect(catalog.has('basic')).toBe(true);
    expect(catalog.has('starter')).toBe(true);
    expect(catalog.has('premium')).toBe(false);
    expect(catalog.resolve('premium').id).toBe('free');

    const s = catalog.resolve('starter');
    expect(s.name).toBe('Starter');
    expect(s.description).toBe('');
    expect(s.interval).toBe('monthly');
    expect(s.prices).toEqual({ USD: 1000, INR: 99900 });
    expect(s.features.promptsPerMonth).toEqual(limited(10));
    expect(s.features.privateProjects).toEqual(limited(5));
    expect(s.features.publishedProjects).toEqual(limited(2));
    expect(s.features.supportLevel).toBe('priority_email');
    expect(catalog.resolve('basic').features.publishedProjects).toEqual(limited(1));
    expect(catalog.resolve('basic').features.supportLevel).toBe('basic');
  });

  it("reads -1 and 'unlimited' as unlimited", () => {
    const catalog = unwrap(
      PlanCatalog.create([{ ...starter, id: 'premium', name: 'Premium', promptsPerMonth: -1, privateProjects: 'unlimited', publishedProjects: -1 }]),
    );
    const f = catalog.resolve('premium').features;
    expect(f.promptsPerMonth).toEqual(UNLIMITED);
    expect(f.privateProjects).toEqual(UNLIMITED);
    expect(f.publishedProjects).toEqual(UNLIMITED);
  });

  it('accepts a limit of 0 and a price of 0', () => {
    const catalog = unwrap(PlanCatalog.create([{ ...starter, publishedProjects: 0, priceUsdMinor: 0, priceInrMinor: 0 }]));
    expect(catalog.resolve('starter').features.publishedProjects).toEqual(limited(0));
    expect(catalog.resolve('starter').prices).toEqual({ USD: 0, INR: 0 });
  });

  describe('refuses a bad configuration with PLANS.INVALID_CONFIG naming the field', () => {
    it.each([['gold'], ['free'], ['pro_monthly'], ['']])('an id that is not an upper tier: %p', (id) => {
      expectConfigError([{ ...starter, id }], 'upperTiers[0].id');
    });

    it('a tier configured twice', () => {
      const e = expectConfigError([starter, { ...starter, name: 'Starter again' }], 'upperTiers[1].id');
      expect(e.message).toContain('starter');
    });

    it.each([[''], ['   ']])('an empty name: %p', (name) => {
      expectConfigError([{ ...starter, name }], 'upperTiers[0].name');
    });

    it.each([['weekly'], ['year'], [null], [undefined]])('an interval other than monthly or annual: %p', (interval) => {
      expectConfigError([{ ...starter, interval }], 'upperTiers[0].interval');
    });

    it.each([
      ['priceUsdMinor', -1],
      ['priceUsdMinor', 9.99],
      ['priceInrMinor', -100],
      ['priceInrMinor', Number.NaN],
      ['priceUsdMinor', '1000'],
    ])('%s = %p (prices are non-negative integer minor units)', (field, value) => {
      expectConfigError([{ ...starter, [field]: value }], `upperTiers[0].${field}`);
    });

    it.each([
      ['promptsPerMonth', -2],
      ['promptsPerMonth', 2.5],
      ['privateProjects', 'lots'],
      ['privateProjects', Number.POSITIVE_INFINITY],
      ['publishedProjects', '-1'],
      ['publishedProjects', null],
    ])('%s = %p (a limit is a non-negative integer, -1 or "unlimited")', (field, value) => {
      expectConfigError([{ ...starter, [field]: value }], `upperTiers[0].${field}`);
    });

    it('points at the index of the bad tier', () => {
      expectConfigError([starter, { ...starter, id: 'basic', name: 'Basic', publishedProjects: -5 }], 'upperTiers[1].publishedProjects');
    });
  });
});

describe('limits (SPEC §9 "-1 or unlimited means no limit")', () => {
  it("parseLimit(-1) and parseLimit('unlimited') are unlimited", () => {
    expect(parseLimit(-1)).toEqual(UNLIMITED);
    expect(parseLimit('unlimited')).toEqual(UNLIMITED);
    expect(parseLimit(0)).toEqual(limited(0));
    expect(parseLimit(7)).toEqual(limited(7));
  });

  it('parseLimit refuses other negatives and fractions', () => {
    expect(() => parseLimit(-2)).toThrow(RangeError);
    expect(() => parseLimit(1.5)).toThrow(RangeError);
  });

  it('limitToNumber writes unlimited as -1', () => {
    expect(limitToNumber(UNLIMITED)).toBe(-1);
    expect(limitToNumber(limited(3))).toBe(3);
  });
});

describe('billingIntervalLabel (SPEC §9)', () => {
  it("is 'year' for annual, else 'month'", () => {
    expect(billingIntervalLabel('annual')).toBe('year');
    expect(billingIntervalLabel('monthly')).toBe('month');
    expect(billingIntervalLabel(null)).toBe('month');
    expect(billingIntervalLabel(undefined)).toBe('month');
    expect(billingIntervalLabel(PRO_ANNUAL_PLAN.interval)).toBe('year');
  });
});

describe('isLimitlessPlan', () => {
  it('is false for the standard plans (their prompts are limited)', () => {
    for (const plan of PlanCatalog.standard().list()) expect(isLimitlessPlan(plan)).toBe(false);
  });

  it('is true only for a tier with unlimited prompts', () => {
    const catalog = unwrap(
      PlanCatalog.create([
        { ...starter, id: 'premium', name: 'Premium', promptsPerMonth: 'unlimited' },
        { ...starter, id: 'basic', name: 'Basic', promptsPerMonth: -1 },
        { ...starter, publishedProjects: 'unlimited', privateProjects: 'unlimited' },
      ]),
    );
    expect(isLimitlessPlan(catalog.resolve('premium'))).toBe(true);
    expect(isLimitlessPlan(catalog.resolve('basic'))).toBe(true);
    expect(isLimitlessPlan(catalog.resolve('starter'))).toBe(false);
  });
});
