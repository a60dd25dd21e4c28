import { describe, expect, it } from '@jest/globals';
import { SequentialIds, createTestKit, signUp } from '@kiln/domain/testing';
import { LocalPaymentGateway } from './local-payment-gateway.adapter.js';

async function setup() {
  const kit = createTestKit();
  await signUp(kit, 'ana');
  const gateway = new LocalPaymentGateway({ apiUrl: 'http://api.test', appUrl: 'http://app.test' }, kit.clock, new SequentialIds('local'));
  const feed = async (events: readonly Parameters<typeof kit.handlePaymentEvent.execute>[0][]) => {
    for (const e of events) expect((await kit.handlePaymentEvent.execute(e)).ok).toBe(true);
  };
  return { kit, gateway, feed };
}

const customer = { userId: 'ana', email: 'ana@example.com', customerId: null };

describe('LocalPaymentGateway', () => {
  it('checkout → test page URL; paying yields events that make the user pro_monthly with 25 credits', async () => {
    const { kit, gateway, feed } = await setup();
    const url = await gateway.createCheckoutSession({ planId: 'pro_monthly', currency: 'USD', customer, idempotencyKey: 'k1', multiplier: 1 });
    expect(url).toMatch(/^http:\/\/api\.test\/local-checkout\/cs_local_/);
    expect(await gateway.createCheckoutSession({ planId: 'pro_monthly', currency: 'USD', customer, idempotencyKey: 'k1', multiplier: 1 })).toBe(url);
    const id = url.split('/').pop() ?? '';
    const paid = await gateway.complete(id);
    expect(paid?.returnUrl).toBe('http://app.test/pricing?success=true');
    await feed(paid?.events ?? []);
    // Completing again replays the same events: nothing changes.
    await feed((await gateway.complete(id))?.events ?? []);
    expect(await kit.profiles.findById('ana')).toMatchObject({ subscriptionPlan: 'pro_monthly', subscriptionStatus: 'active', customerId: 'cus_local_ana' });
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(25);
  });

  it('add-on +500; cancel then end of period → free with the add-on credits kept', async () => {
    const { kit, gateway, feed } = await setup();
    const checkout = await gateway.createCheckoutSession({ planId: 'pro_monthly', currency: 'USD', customer, idempotencyKey: 'k1', multiplier: 1 });
    await feed((await gateway.complete(checkout.split('/').pop() ?? ''))?.events ?? []);
    const addOn = await gateway.createAddOnPayment({ currency: 'USD', customer, idempotencyKey: 'k2' });
    await feed((await gateway.complete(addOn.split('/').pop() ?? ''))?.events ?? []);
    expect((await kit.ledger.summary('ana')).balances.addon).toBe(500);
    const profile = await kit.profiles.findById('ana');
    const snapshot = await gateway.cancelSubscription({ subscriptionId: profile?.subscriptionId ?? '', idempotencyKey: 'k3' });
    expect(snapshot.cancelAtPeriodEnd).toBe(true);
    kit.clock.advance(1000);
    await feed(await gateway.endPeriod(snapshot.id));
    expect(await kit.profiles.findById('ana')).toMatchObject({ subscriptionPlan: 'free', subscriptionId: null });
    expect((await kit.ledger.summary('ana')).balances).toEqual({ monthly: 5, referral: 0, addon: 500 });
  });

  it('a 2x checkout makes a subscription with that multiplier: the profile gets twice the prompts', async () => {
    const { kit, gateway, feed } = await setup();
    const url = await gateway.createCheckoutSession({ planId: 'pro_monthly', currency: 'USD', customer, idempotencyKey: 'k1', multiplier: 2 });
    const id = url.split('/').pop() ?? '';
    expect((await gateway.session(id))?.multiplier).toBe(2);
    await feed((await gateway.complete(id))?.events ?? []);
    expect(await kit.profiles.findById('ana')).toMatchObject({ subscriptionPlan: 'pro_monthly', proMultiplier: 2 });
    expect((await kit.ledger.summary('ana')).balances.monthly).toBe(50);
  });

  it('a canceled checkout returns to the canceled URL and cannot be paid', async () => {
    const { gateway } = await setup();
    const id = (await gateway.createCheckoutSession({ planId: 'pro_annual', currency: 'INR', customer, idempotencyKey: 'k1', multiplier: 1 })).split('/').pop() ?? '';
    expect(await gateway.cancel(id)).toBe('http://app.test/pricing?canceled=true');
    expect(await gateway.complete(id)).toBeNull();
  });

  it('keeps local invoices in test mode: one per paid checkout at the price charged, newest first; open or abandoned ones are not invoiced', async () => {
    const { kit, gateway } = await setup();
    const paid = kit.clock.now();
    const plan = await gateway.createCheckoutSession({ planId: 'pro_annual', currency: 'INR', customer, idempotencyKey: 'k1', multiplier: 1 });
    await gateway.complete(plan.split('/').pop() ?? '');
    kit.clock.advance(60_000);
    const addOn = await gateway.createAddOnPayment({ currency: 'INR', customer: { ...customer, customerId: 'cus_local_ana' }, idempotencyKey: 'k2' });
    await gateway.complete(addOn.split('/').pop() ?? '');
    await gateway.createAddOnPayment({ currency: 'INR', customer: { ...customer, customerId: 'cus_local_ana' }, idempotencyKey: 'k3' });
    const abandoned = await gateway.createCheckoutSession({ planId: 'pro_monthly', currency: 'INR', customer, idempotencyKey: 'k4', multiplier: 1 });
    await gateway.cancel(abandoned.split('/').pop() ?? '');

    const invoices = await gateway.listInvoices('cus_local_ana');

    expect(invoices.map(({ id: _id, ...rest }) => rest)).toEqual([
      { number: null, status: 'paid', amountMinor: 499_00, currency: 'INR', description: '500 add-on credits', createdAt: new Date(paid.getTime() + 60_000), url: null },
      { number: null, status: 'paid', amountMinor: 24_000_00, currency: 'INR', description: 'Pro Annual', createdAt: paid, url: null },
    ]);
    expect(await gateway.listInvoices('cus_local_someone_else')).toEqual([]);
  });
});
