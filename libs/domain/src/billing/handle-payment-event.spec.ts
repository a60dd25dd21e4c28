import { describe, expect, it } from '@jest/globals';
import { DAY_MS } from '../testing/fixed-clock.js';
import { InMemorySubscriptionStateVersions } from '../testing/in-memory-payments.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { HandlePaymentEvent } from './handle-payment-event.use-case.js';
import { checkoutPrice } from './checkout-price.js';
import { FREE_PLAN, PRO_ANNUAL_PLAN as PRO_ANNUAL, PRO_MONTHLY_PLAN as PRO_MONTHLY } from '../plans/plan.entity.js';
import type { PaymentEvent } from './payment-event.js';
import { addOnCheckout, invoicePaid, snapshot, subscriptionEvent } from '../testing/payment-event-builders.js';

const T0 = new Date('2026-03-01T10:00:00Z');

async function subscribed() {
  const kit = createTestKit();
  kit.clock.set(T0);
  await signUp(kit, 'ana');
  const sub = snapshot({ currentPeriodStart: T0 });
  kit.payments.subscriptions.set(sub.id, sub);
  const r = await kit.handlePaymentEvent.execute(subscriptionEvent('evt_1', 'subscription.created', 'ana', T0, sub));
  expect(r).toEqual({ ok: true, value: 'applied' });
  return { kit, sub };
}

describe('HandlePaymentEvent', () => {
  it('subscription.created moves the user to pro_monthly with 25 credits and the subscription fields', async () => {
    const { kit, sub } = await subscribed();
    expect(await kit.profiles.findById('ana')).toMatchObject({
      subscriptionPlan: 'pro_monthly',
      subscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      customerId: 'cus_1',
      billingCycleStartDate: sub.currentPeriodStart,
      billingCycleEndDate: sub.currentPeriodEnd,
    });
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(25);
  });

  it('a duplicate event id changes nothing', async () => {
    const { kit, sub } = await subscribed();
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm1' });
    const again = await kit.handlePaymentEvent.execute(subscriptionEvent('evt_1', 'subscription.created', 'ana', T0, sub));
    expect(again).toEqual({ ok: true, value: 'duplicate' });
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(24);
  });

  it('an older subscription state arriving after a newer one is ignored', async () => {
    const { kit, sub } = await subscribed();
    const later = new Date(T0.getTime() + DAY_MS);
    await kit.handlePaymentEvent.execute(subscriptionEvent('evt_3', 'subscription.updated', 'ana', later, { ...sub, planId: 'pro_annual', interval: 'annual' }));
    const stale = await kit.handlePaymentEvent.execute(subscriptionEvent('evt_2', 'subscription.updated', 'ana', new Date(T0.getTime() + 1000), sub));
    expect(stale).toEqual({ ok: true, value: 'stale' });
    expect((await kit.profiles.findById('ana'))?.subscriptionPlan).toBe('pro_annual');
  });

  it('invoice.paid starts the new period once; the same invoice again resets nothing', async () => {
    const { kit } = await subscribed();
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm1' });
    const next = new Date('2026-04-01T10:00:00Z');
    kit.clock.set(next);
    expect(await kit.handlePaymentEvent.execute(invoicePaid('evt_i1', 'ana', 'in_2', next))).toEqual({ ok: true, value: 'applied' });
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(25);
    await kit.consumePromptCredit.execute({ userId: 'ana', idempotencyKey: 'm2' });
    // A second delivery with another event id for the same invoice: same period, no reset.
    expect((await kit.handlePaymentEvent.execute(invoicePaid('evt_i2', 'ana', 'in_2', next))).ok).toBe(true);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(24);
  });

  it('an add-on checkout grants 500 credits once; cancellation keeps them and moves to free', async () => {
    const { kit, sub } = await subscribed();
    await kit.handlePaymentEvent.execute(addOnCheckout('evt_a', 'ana', 'pi_1', T0));
    await kit.handlePaymentEvent.execute(addOnCheckout('evt_b', 'ana', 'pi_1', T0));
    expect((await kit.ledger.summary('ana')).balances.addon).toBe(500);
    const cancel = await kit.cancelSubscription.execute({ userId: 'ana', subscriptionId: 'sub_1' });
    expect(cancel.ok).toBe(true);
    expect((await kit.profiles.findById('ana'))).toMatchObject({ subscriptionPlan: 'pro_monthly', subscriptionEndDate: sub.currentPeriodEnd });
    const end = sub.currentPeriodEnd;
    kit.clock.set(end);
    await kit.handlePaymentEvent.execute(subscriptionEvent('evt_d', 'subscription.deleted', 'ana', end, { ...sub, status: 'canceled' }));
    expect(await kit.profiles.findById('ana')).toMatchObject({ subscriptionPlan: 'free', subscriptionId: null, subscriptionStatus: 'canceled' });
    expect((await kit.ledger.summary('ana')).balances).toEqual({ monthly: 5, referral: 0, addon: 500 });
  });

  it('the deletion of another (old) subscription does not downgrade the current one', async () => {
    const { kit, sub } = await subscribed();
    const r = await kit.handlePaymentEvent.execute(
      subscriptionEvent('evt_old', 'subscription.deleted', 'ana', new Date(T0.getTime() + DAY_MS), { ...sub, id: 'sub_0', status: 'canceled' }),
    );
    expect(r).toEqual({ ok: true, value: 'ignored' });
    expect((await kit.profiles.findById('ana'))?.subscriptionPlan).toBe('pro_monthly');
  });
});

describe('HandlePaymentEvent — failures', () => {
  it('a failed effect rolls back the record of the event id, so the retry applies it', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    // A unit of work that undoes the event record when the work throws, as a transaction would.
    const uow = {
      run: async <T>(work: () => Promise<T>): Promise<T> => {
        const before = new Set(kit.processedPaymentEvents.ids);
        try {
          return await work();
        } catch (e) {
          kit.processedPaymentEvents.ids.clear();
          for (const id of before) kit.processedPaymentEvents.ids.add(id);
          throw e;
        }
      },
    };
    const handler = new HandlePaymentEvent(
      kit.processedPaymentEvents,
      new InMemorySubscriptionStateVersions(),
      kit.profiles,
      kit.plans,
      kit.changePlan,
      kit.grantAddOnCredits,
      uow,
    );
    const bad = { ...addOnCheckout('evt_x', 'ana', 'pi_1', T0), packs: 0 } as PaymentEvent;
    const r = await handler.execute(bad);
    expect(!r.ok && r.error.code).toBe('CREDITS.INVALID_AMOUNT');
    expect(kit.processedPaymentEvents.ids.has('evt_x')).toBe(false);
    expect((await handler.execute(addOnCheckout('evt_x', 'ana', 'pi_1', T0))).ok).toBe(true);
    expect((await kit.ledger.summary('ana')).balances.addon).toBe(500);
  });
});

describe('endpoint use cases', () => {
  it('StartCheckout asks the gateway for the plan in the profile currency; free is not purchasable', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    expect(await kit.startCheckout.execute({ userId: 'ana', planId: 'pro_monthly' })).toEqual({ ok: true, value: { url: 'https://pay.test/checkout/pro_monthly/USD/ana' } });
    expect((await kit.startCheckout.execute({ userId: 'ana', planId: 'free' })).ok).toBe(false);
    const unknown = await kit.startCheckout.execute({ userId: 'ana', planId: 'gold' });
    expect(!unknown.ok && unknown.error.code).toBe('PLANS.UNKNOWN');
  });

  it('StartCheckout refuses to charge another currency than the one the page showed', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const changed = await kit.startCheckout.execute({ userId: 'ana', planId: 'pro_monthly', shownCurrency: 'INR' });
    expect(!changed.ok && changed.error).toEqual({ code: 'BILLING.CURRENCY_CHANGED', currency: 'USD', message: 'Prices are now shown in USD. Please review the price and try again.' });
    expect((await kit.startCheckout.execute({ userId: 'ana', planId: 'pro_monthly', shownCurrency: 'USD' })).ok).toBe(true);
  });

  it('StartCheckout charges the chosen multiplier (1x default, 2x, 3x) and refuses any other', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    await kit.startCheckout.execute({ userId: 'ana', planId: 'pro_monthly' });
    await kit.startCheckout.execute({ userId: 'ana', planId: 'pro_monthly', multiplier: 3 });
    const asked = kit.payments.calls.filter((c) => c.method === 'createCheckoutSession').map((c) => (c.request as { multiplier: number }).multiplier);
    expect(asked).toEqual([1, 3]);
    for (const multiplier of [0, 4, 1.5, -1]) {
      expect(await kit.startCheckout.execute({ userId: 'ana', planId: 'pro_monthly', multiplier })).toEqual({ ok: false, error: { code: 'VALIDATION_FAILED', message: 'multiplier: must be 1, 2 or 3' } });
    }
    expect(kit.payments.calls.filter((c) => c.method === 'createCheckoutSession')).toHaveLength(2);
  });

  it('checkoutPrice is the plan price times the multiplier, in integer minor units; free is never multiplied', () => {
    expect(checkoutPrice(PRO_MONTHLY, 'USD', 2)).toEqual({ amountMinor: 50_00, currency: 'USD' });
    expect(checkoutPrice(PRO_MONTHLY, 'INR', 3)).toEqual({ amountMinor: 7497_00, currency: 'INR' });
    expect(checkoutPrice(PRO_ANNUAL, 'USD', 1)).toEqual({ amountMinor: 240_00, currency: 'USD' });
    expect(checkoutPrice(FREE_PLAN, 'USD', 3)).toEqual({ amountMinor: 0, currency: 'USD' });
  });

  it('a subscription bought at 2x gives the profile that multiplier and twice the monthly prompts', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await signUp(kit, 'ana');
    const sub = snapshot({ currentPeriodStart: T0, multiplier: 2 });
    kit.payments.subscriptions.set(sub.id, sub);
    expect(await kit.handlePaymentEvent.execute(subscriptionEvent('evt_m', 'subscription.created', 'ana', T0, sub))).toEqual({ ok: true, value: 'applied' });
    expect((await kit.profiles.findById('ana'))?.proMultiplier).toBe(2);
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(50);
  });

  it('OpenCustomerPortal needs a customer id', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    const none = await kit.openCustomerPortal.execute({ userId: 'ana' });
    expect(!none.ok && none.error).toMatchObject({ code: 'BILLING.NO_CUSTOMER', message: 'No active subscription found. Please subscribe first.' });
  });

  it('ForceUpdateSubscription re-reads the subscription and answers the SPEC §7 shape', async () => {
    const { kit, sub } = await subscribed();
    kit.payments.subscriptions.set(sub.id, { ...sub, planId: 'pro_annual', interval: 'annual' });
    kit.clock.advance(DAY_MS);
    const r = await kit.forceUpdateSubscription.execute({ userId: 'ana' });
    expect(r.ok && r.value).toMatchObject({ status: 'success', plan: { id: 'pro_annual', price: 240, currency: 'USD', billing_interval: 'annual' } });
    expect((await kit.profiles.findById('ana'))?.subscriptionPlan).toBe('pro_annual');
  });

  it('ForceUpdateSubscription right after checkout (no webhook yet) finds the user’s subscription at the provider', async () => {
    const kit = createTestKit();
    kit.clock.set(T0);
    await signUp(kit, 'ana');
    const none = await kit.forceUpdateSubscription.execute({ userId: 'ana' });
    expect(!none.ok && none.error.code).toBe('BILLING.NO_SUBSCRIPTION');
    const sub = snapshot({ currentPeriodStart: T0 });
    kit.payments.subscriptions.set(sub.id, sub);
    kit.payments.owners.set(sub.id, 'ana');
    const r = await kit.forceUpdateSubscription.execute({ userId: 'ana' });
    expect(r.ok && r.value.plan.id).toBe('pro_monthly');
    expect(await kit.profiles.findById('ana')).toMatchObject({ subscriptionPlan: 'pro_monthly', subscriptionId: 'sub_1', customerId: 'cus_1' });
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(25);
  });

  it('CancelSubscription refuses another subscription id', async () => {
    const { kit } = await subscribed();
    const r = await kit.cancelSubscription.execute({ userId: 'ana', subscriptionId: 'sub_other' });
    expect(!r.ok && r.error.code).toBe('BILLING.NOT_YOUR_SUBSCRIPTION');
  });

  it('BuyAddOnCredits answers a payment link', async () => {
    const kit = createTestKit();
    await signUp(kit, 'ana');
    expect(await kit.buyAddOnCredits.execute({ userId: 'ana' })).toEqual({ ok: true, value: { paymentLink: 'https://pay.test/addon/USD/ana' } });
  });
});
