import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { type TestApp, type TestUser, newUser, signIn, startTestApp } from '../testing/e2e.js';

const SECRET = 'whsec_e2e_secret';
const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_e2e',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_PRICE_PRO_MONTHLY_USD: 'price_pm_usd',
  STRIPE_PRICE_PRO_MONTHLY_INR: 'price_pm_inr',
  STRIPE_PRICE_PRO_ANNUAL_USD: 'price_pa_usd',
  STRIPE_PRICE_PRO_ANNUAL_INR: 'price_pa_inr',
  STRIPE_PRICE_ADDON_USD: 'price_addon_usd',
  STRIPE_PRICE_ADDON_INR: 'price_addon_inr',
};

const stripe = new Stripe('sk_test_e2e');
const nowS = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

function subscriptionObject(userId: string, over: { price?: string; start?: number; status?: string; interval?: 'month' | 'year'; quantity?: number } = {}) {
  // Periods start just after sign-in: a period that began before the user's current free cycle
  // would be an older cycle than the current one (the ledger ignores those).
  const start = over.start ?? nowS() + 1;
  return {
    id: `sub_${userId.slice(0, 8)}`,
    object: 'subscription',
    customer: `cus_${userId.slice(0, 8)}`,
    status: over.status ?? 'active',
    cancel_at_period_end: false,
    metadata: { user_id: userId },
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          object: 'subscription_item',
          price: { id: over.price ?? 'price_pm_usd', object: 'price', recurring: { interval: over.interval ?? 'month' } },
          quantity: over.quantity ?? 1,
          current_period_start: start,
          current_period_end: start + (over.interval === 'year' ? 365 : 30) * DAY,
        },
      ],
    },
  };
}

const event = (id: string, type: string, object: unknown, created = nowS()) => JSON.stringify({ id, object: 'event', type, created, data: { object } });

describe('POST /api/payment/webhook (Stripe mode, PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: STRIPE_ENV });
  });
  afterAll(async () => {
    await t.close();
  });

  const deliver = (payload: string, header = stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET })) =>
    t.http().post('/api/payment/webhook').set('Content-Type', 'application/json').set('Stripe-Signature', header).send(payload);
  const profile = async (user: TestUser) => (await t.http().get('/api/profile').set(user.auth)).body as Record<string, unknown>;
  const consume = (user: TestUser, key: string) => t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', key);

  it('a valid subscription.created is applied: pro_monthly, active, 25 credits', async () => {
    const user = newUser();
    await signIn(t, user);
    const r = await deliver(event(`evt_c_${user.id}`, 'customer.subscription.created', subscriptionObject(user.id)));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ received: true });
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_monthly', subscription_status: 'active', customer_id: `cus_${user.id.slice(0, 8)}`, credits: 25 });
  });

  it('a subscription bought at 3x (its quantity) gives the profile that multiplier and 75 credits', async () => {
    const user = newUser();
    await signIn(t, user);
    expect((await deliver(event(`evt_q_${user.id}`, 'customer.subscription.created', subscriptionObject(user.id, { quantity: 3 })))).status).toBe(200);
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_monthly', pro_multiplier: 3, credits: 75 });
  });

  it.each([
    ['a re-serialised body', (p: string) => ({ body: JSON.stringify(JSON.parse(p), null, 2), header: stripe.webhooks.generateTestHeaderString({ payload: p, secret: SECRET }) })],
    ['a wrong secret', (p: string) => ({ body: p, header: stripe.webhooks.generateTestHeaderString({ payload: p, secret: 'whsec_wrong' }) })],
    ['a timestamp 301 s old', (p: string) => ({ body: p, header: stripe.webhooks.generateTestHeaderString({ payload: p, secret: SECRET, timestamp: nowS() - 301 }) })],
    ['no signature', (p: string) => ({ body: p, header: '' })],
  ])('%s → 400 and nothing changes', async (_name, tamper) => {
    const user = newUser();
    await signIn(t, user);
    const { body, header } = tamper(event(`evt_bad_${user.id}`, 'customer.subscription.created', subscriptionObject(user.id)));
    const r = await deliver(body, header);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'BILLING.INVALID_WEBHOOK' });
    expect(await profile(user)).toMatchObject({ subscription_plan: 'free', subscription_id: null, credits: 5 });
  });

  it('the same event delivered twice concurrently has one effect', async () => {
    const user = newUser();
    await signIn(t, user);
    const session = { id: `cs_${user.id}`, object: 'checkout.session', mode: 'payment', payment_status: 'paid', client_reference_id: user.id, customer: null, metadata: { user_id: user.id, kind: 'add_on', packs: '1' } };
    const payload = event(`evt_addon_${user.id}`, 'checkout.session.completed', session);
    const results = await Promise.all([deliver(payload), deliver(payload), deliver(payload)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await profile(user)).toMatchObject({ extra_credits: 500 });
  });

  it('subscription.updated before subscription.created: the newer state wins', async () => {
    const user = newUser();
    await signIn(t, user);
    const created = nowS() - 60;
    const updated = event(`evt_u_${user.id}`, 'customer.subscription.updated', subscriptionObject(user.id, { price: 'price_pa_usd', interval: 'year' }), created + 30);
    const older = event(`evt_c_${user.id}`, 'customer.subscription.created', subscriptionObject(user.id), created);
    expect((await deliver(updated)).status).toBe(200);
    expect((await deliver(older)).status).toBe(200);
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_annual', billing_interval: 'annual' });
  });

  it('invoice.paid twice (two deliveries of one invoice) resets the allowance once', async () => {
    const user = newUser();
    await signIn(t, user);
    const sub = subscriptionObject(user.id);
    expect((await deliver(event(`evt_c_${user.id}`, 'customer.subscription.created', sub))).status).toBe(200);
    for (const k of ['a', 'b', 'c']) expect((await consume(user, k)).status).toBe(200);
    expect(await profile(user)).toMatchObject({ credits: 22 });
    const start = sub.items.data[0]!.current_period_start + 1;
    const invoice = {
      id: `in_${user.id}`,
      object: 'invoice',
      period_start: start,
      period_end: start + 30 * DAY,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: { user_id: user.id } } },
      lines: { object: 'list', data: [{ id: 'il_1', object: 'line_item', period: { start, end: start + 30 * DAY } }] },
    };
    expect((await deliver(event(`evt_i1_${user.id}`, 'invoice.paid', invoice))).status).toBe(200);
    expect(await profile(user)).toMatchObject({ credits: 25 });
    expect((await consume(user, 'd')).status).toBe(200);
    expect((await deliver(event(`evt_i1_${user.id}`, 'invoice.paid', invoice))).status).toBe(200);
    expect((await deliver(event(`evt_i2_${user.id}`, 'invoice.paid', invoice))).status).toBe(200);
    expect(await profile(user)).toMatchObject({ credits: 24 });
  });

  it('subscription.deleted → free; add-on credits are kept', async () => {
    const user = newUser();
    await signIn(t, user);
    const sub = subscriptionObject(user.id);
    await deliver(event(`evt_c_${user.id}`, 'customer.subscription.created', sub, nowS() - 10));
    const session = { id: `cs_${user.id}`, object: 'checkout.session', mode: 'payment', payment_status: 'paid', client_reference_id: user.id, customer: sub.customer, metadata: { kind: 'add_on', packs: '1' } };
    await deliver(event(`evt_a_${user.id}`, 'checkout.session.completed', session));
    expect((await deliver(event(`evt_d_${user.id}`, 'customer.subscription.deleted', { ...sub, status: 'canceled' }))).status).toBe(200);
    expect(await profile(user)).toMatchObject({ subscription_plan: 'free', subscription_id: null, subscription_status: 'canceled', extra_credits: 500 });
  });
});
