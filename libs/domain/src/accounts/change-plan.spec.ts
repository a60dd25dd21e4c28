import { describe, expect, it } from '@jest/globals';
import { addMonthsClamped } from '../credits/allowance-cycle.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { type TestKit, createTestKit, signUp } from '../testing/test-kit.js';

const T0 = new Date('2026-01-15T10:00:00Z');

async function consume(kit: TestKit, userId: string, n: number, prefix = 'msg') {
  const results = [];
  for (let i = 0; i < n; i += 1) results.push(await kit.consumePromptCredit.execute({ userId, idempotencyKey: `${prefix}-${i}` }));
  return results;
}

const period = (start: Date) => ({ start, end: addMonthsClamped(start, 1) });

/** A user with referral credits (25), add-on credits (500) and 2 of their 5 free prompts used. */
async function userWithEveryBucket(kit: TestKit) {
  const ana = await signUp(kit, 'ana', { fullName: 'Ana' });
  const bob = await signUp(kit, 'bob', { fullName: 'Bob', ref: ana.profile.referralCode });
  expect(bob.referral?.ok).toBe(true);
  const addOn = await kit.grantAddOnCredits.execute({ userId: 'bob', packs: 1, paymentKey: 'pay_1' });
  expect(addOn.ok).toBe(true);
  await consume(kit, 'bob', 2, 'free');
  expect((await kit.ledger.summary('bob')).balances).toEqual({ monthly: 3, referral: 25, addon: 500 });
}

describe('ChangePlan — upgrade', () => {
  it('free → pro_monthly with a billing period resets the monthly bucket to 25 and keeps referral and add-on credits', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await userWithEveryBucket(kit);
    kit.clock.advance(3 * DAY_MS);
    const start = kit.clock.now();

    const r = await kit.changePlan.execute({
      userId: 'bob',
      planId: 'pro_monthly',
      period: period(start),
      subscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      customerId: 'cus_1',
    });

    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.planChanged).toBe(true);
    expect(r.value.cycle?.outcome).toBe('started');
    const summary = await kit.ledger.summary('bob');
    expect(summary.balances).toEqual({ monthly: 25, referral: 25, addon: 500 });
    expect(summary.cycle).toEqual({ start, end: addMonthsClamped(start, 1), allowance: 25 });
    // The 3 free credits left expired; they were not carried over.
    expect(summary.totals.expired).toBe(3);
  });

  it('records the subscription on the profile and the first purchase date', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const start = kit.clock.now();
    const end = addMonthsClamped(start, 1);

    const r = await kit.changePlan.execute({
      userId: 'ana',
      planId: 'pro_monthly',
      period: { start, end },
      subscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      customerId: 'cus_1',
      subscriptionEndDate: end,
    });

    expect(r.ok).toBe(true);
    const stored = await kit.profiles.findById('ana');
    expect(stored).toMatchObject({
      subscriptionPlan: 'pro_monthly',
      billingInterval: 'monthly',
      subscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      customerId: 'cus_1',
      billingCycleStartDate: start,
      billingCycleEndDate: end,
      firstPurchasedDate: start,
      subscriptionEndDate: end,
      updatedAt: start,
    });
    if (r.ok) expect(r.value.profile).toEqual(stored);
  });

  it('pro_annual is billed annually but its allowance is still 25 per month', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const start = kit.clock.now();
    const r = await kit.changePlan.execute({ userId: 'ana', planId: 'pro_annual', period: { start, end: addMonthsClamped(start, 12) } });
    expect(r.ok).toBe(true);
    expect((await kit.profiles.findById('ana'))?.billingInterval).toBe('annual');
    const summary = await kit.ledger.summary('ana');
    expect(summary.balances.monthly).toBe(25);
    expect(summary.cycle?.end).toEqual(addMonthsClamped(start, 1));
  });

  it('keeps the first purchase date across a downgrade and a later re-upgrade', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const firstPurchase = kit.clock.now();
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: period(firstPurchase) })).ok).toBe(true);
    kit.clock.advance(40 * DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);
    expect((await kit.profiles.findById('ana'))?.firstPurchasedDate).toEqual(firstPurchase);
    kit.clock.advance(40 * DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_annual', period: period(kit.clock.now()) })).ok).toBe(true);
    expect((await kit.profiles.findById('ana'))?.firstPurchasedDate).toEqual(firstPurchase);
  });

  it('a change to free never sets the first purchase date', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);
    expect((await kit.profiles.findById('ana'))?.firstPurchasedDate).toBeNull();
  });

  it.each([
    [2, 50],
    [3, 75],
  ] as const)('pro with multiplier %ix grants %i credits a month', async (multiplier, credits) => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const r = await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: period(kit.clock.now()), proMultiplier: multiplier });
    expect(r.ok).toBe(true);
    expect((await kit.profiles.findById('ana'))?.proMultiplier).toBe(multiplier);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(credits);
  });

  it('the multiplier never scales the free plan', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free', proMultiplier: 3 })).ok).toBe(true);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(5);
  });

  it('a renewal (same plan, next period) starts a new cycle and resets the monthly bucket', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const first = kit.clock.now();
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: period(first) })).ok).toBe(true);
    await consume(kit, 'ana', 20);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(5);

    const next = addMonthsClamped(first, 1);
    kit.clock.set(next);
    const r = await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: period(next) });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.planChanged).toBe(false);
    const summary = await kit.ledger.summary('ana');
    expect(summary.balances.monthly).toBe(25);
    expect(summary.cycle?.start).toEqual(next);
  });
});

describe('ChangePlan — downgrade to free', () => {
  it('without a period re-anchors the cycles at now and the monthly bucket becomes 5', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await userWithEveryBucket(kit);
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'bob', planId: 'pro_monthly', period: period(kit.clock.now()), subscriptionId: 'sub_1' })).ok).toBe(true);
    await consume(kit, 'bob', 4, 'pro');
    kit.clock.advance(10 * DAY_MS);
    const downgradedAt = kit.clock.now();

    const r = await kit.changePlan.execute({ userId: 'bob', planId: 'free', subscriptionStatus: 'canceled' });

    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.planChanged).toBe(true);
    const stored = await kit.profiles.findById('bob');
    expect(stored).toMatchObject({
      subscriptionPlan: 'free',
      billingInterval: null,
      subscriptionStatus: 'canceled',
      subscriptionId: 'sub_1',
      billingCycleStartDate: downgradedAt,
      billingCycleEndDate: null,
    });
    const summary = await kit.ledger.summary('bob');
    expect(summary.balances).toEqual({ monthly: 5, referral: 25, addon: 500 });
    expect(summary.cycle).toEqual({ start: downgradedAt, end: addMonthsClamped(downgradedAt, 1), allowance: 5 });
  });

  it('enforces free limits from then on: 5 prompts, then the credit limit; 5 again next month', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: period(kit.clock.now()) })).ok).toBe(true);
    kit.clock.advance(5 * DAY_MS);
    const downgradedAt = kit.clock.now();
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);

    const results = await consume(kit, 'ana', 6, 'after');
    expect(results.slice(0, 5).every((x) => x.ok)).toBe(true);
    const sixth = results[5];
    expect(sixth?.ok).toBe(false);
    if (sixth && !sixth.ok) expect(sixth.error.code).toBe('CREDITS.LIMIT_REACHED');

    kit.clock.set(addMonthsClamped(downgradedAt, 1));
    expect((await kit.grantMonthlyAllowance.execute({ userId: 'ana' })).ok).toBe(true);
    const summary = await kit.ledger.summary('ana');
    expect(summary.balances.monthly).toBe(5);
    expect(summary.cycle?.start).toEqual(addMonthsClamped(downgradedAt, 1));
  });
});

describe('ChangePlan — idempotence', () => {
  it('repeating the same upgrade grants nothing again and keeps what was used', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const input = { userId: 'ana', planId: 'pro_monthly', period: period(kit.clock.now()), subscriptionId: 'sub_1' } as const;
    expect((await kit.changePlan.execute(input)).ok).toBe(true);
    await consume(kit, 'ana', 3);
    const entriesBefore = await kit.ledger.entries('ana');
    kit.clock.advance(60_000);

    const again = await kit.changePlan.execute(input);

    expect(again.ok).toBe(true);
    if (again.ok) expect(again.value.planChanged).toBe(false);
    expect(await kit.ledger.entries('ana')).toEqual(entriesBefore);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(22);
  });

  it('repeating a downgrade to free without a period keeps the anchor and grants nothing again', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: period(kit.clock.now()) })).ok).toBe(true);
    kit.clock.advance(DAY_MS);
    const downgradedAt = kit.clock.now();
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);
    await consume(kit, 'ana', 2);
    const entriesBefore = await kit.ledger.entries('ana');
    kit.clock.advance(DAY_MS);

    const again = await kit.changePlan.execute({ userId: 'ana', planId: 'free' });

    expect(again.ok).toBe(true);
    if (again.ok) expect(again.value.planChanged).toBe(false);
    expect((await kit.profiles.findById('ana'))?.billingCycleStartDate).toEqual(downgradedAt);
    expect(await kit.ledger.entries('ana')).toEqual(entriesBefore);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(3);
  });
});

describe('ChangePlan — refusals', () => {
  it.each([['gold'], [''], ['basic'], ['FREE']])('an unknown plan id %p is PLANS.UNKNOWN and changes nothing', async (planId) => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const before = await kit.profiles.findById('ana');
    const entriesBefore = await kit.ledger.entries('ana');
    const r = await kit.changePlan.execute({ userId: 'ana', planId });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('PLANS.UNKNOWN');
      if (r.error.code === 'PLANS.UNKNOWN') expect(r.error.planId).toBe(planId);
    }
    expect(await kit.profiles.findById('ana')).toEqual(before);
    expect(await kit.ledger.entries('ana')).toEqual(entriesBefore);
  });

  it('an unknown user is PROFILES.NOT_FOUND and no profile or credit appears', async () => {
    const kit = createTestKit();
    const r = await kit.changePlan.execute({ userId: 'ghost', planId: 'pro_monthly', period: period(kit.clock.now()) });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('PROFILES.NOT_FOUND');
      expect(r.error.message).toBe('Record with id ghost not found');
    }
    expect(kit.profiles.all()).toHaveLength(0);
    expect(await kit.ledger.entries('ghost')).toHaveLength(0);
  });
});

/**
 * Each plan change starts its cycle under its own key (`plan-change:…`), so going back to an
 * allowance the same cycle start already had still resets the monthly bucket (a key derived
 * from start and allowance alone would replay the old grant and keep the larger allowance).
 */
describe('ChangePlan — going back to an earlier allowance within the same cycle start', () => {
  it('multiplier 1x → 2x → 1x within one billing period ends with 25 monthly credits', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    kit.clock.advance(DAY_MS);
    const p = period(kit.clock.now());
    for (const proMultiplier of [1, 2, 1] as const) {
      kit.clock.advance(DAY_MS);
      expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly', period: p, proMultiplier })).ok).toBe(true);
    }
    const summary = await kit.ledger.summary('ana');
    expect(summary.cycle?.allowance).toBe(25);
    expect(summary.balances.monthly).toBe(25);
  });

  it('free → pro_monthly → free at the sign-up instant ends with the free allowance of 5', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'pro_monthly' })).ok).toBe(true);
    expect((await kit.changePlan.execute({ userId: 'ana', planId: 'free' })).ok).toBe(true);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(5);
  });
});
