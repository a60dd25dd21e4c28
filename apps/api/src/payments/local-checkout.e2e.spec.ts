import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type TestApp, type TestUser, newUser, signIn, startTestApp } from '../testing/e2e.js';
import { LOCAL_CHECKOUT_BUTTONS } from './local-checkout.page.js';

/** No STRIPE_SECRET_KEY: the local test checkout, through the same event handling as webhooks. */
describe('local test checkout (PostgreSQL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEB_ORIGIN: 'http://app.test' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const profile = async (user: TestUser) => (await t.http().get('/api/profile').set(user.auth)).body as Record<string, unknown>;
  const pathOf = (url: string) => new URL(url).pathname;

  it('subscribe → pro_monthly with 25 credits; add-on +500; cancel → at period end back to free with the add-on kept', async () => {
    const user = newUser('Ana');
    await signIn(t, user);

    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toMatch(/^http:\/\/localhost:\d+\/local-checkout\/cs_local_[\w-]+$/);
    const page = await t.http().get(pathOf(checkout.body.url as string));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('TEST CHECKOUT');
    expect(page.text).toContain('Pro Monthly');
    expect(page.text).toContain('$25 / month');
    expect(page.text).toContain(`>${LOCAL_CHECKOUT_BUTTONS.pay}</button>`);
    expect(page.text).toContain(`>${LOCAL_CHECKOUT_BUTTONS.cancel}</button>`);

    const paid = await t.http().post(`${pathOf(checkout.body.url as string)}/complete`);
    expect(paid.status).toBe(303);
    expect(paid.headers['location']).toBe('http://app.test/pricing?success=true');
    const pro = await profile(user);
    expect(pro).toMatchObject({ subscription_plan: 'pro_monthly', subscription_status: 'active', billing_interval: 'monthly', credits: 25 });
    expect(pro['customer_id']).toBe(`cus_local_${user.id}`);
    // Paying the same checkout again changes nothing.
    expect((await t.http().post(`${pathOf(checkout.body.url as string)}/complete`)).status).toBe(303);
    expect(await profile(user)).toMatchObject({ credits: 25 });

    const link = await t.http().post('/api/payment/create-payment-link').set(user.auth).send();
    expect(link.status).toBe(200);
    const addOn = await t.http().post(`${pathOf(link.body.paymentLink as string)}/complete`);
    expect(addOn.headers['location']).toBe('http://app.test/settings?success=true');
    expect(await profile(user)).toMatchObject({ credits: 25, extra_credits: 500 });

    const synced = await t.http().post('/api/payment/force-update-subscription').set(user.auth).send();
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({
      status: 'success',
      plan: { id: 'pro_monthly', price: 25, currency: 'USD', billing_interval: 'monthly' },
      subscription: { id: pro['subscription_id'], status: 'active', cancel_at_period_end: false },
    });

    const portal = await t.http().post('/api/payment/create-customer-portal').set(user.auth).send();
    expect(portal.status).toBe(200);
    expect(portal.body.link.link).toMatch(/\/local-checkout\/portal\/cus_local_/);

    const cancel = await t.http().post('/api/cancel-subscription').set(user.auth).send({ subscriptionId: pro['subscription_id'] });
    expect(cancel.status).toBe(200);
    expect(cancel.body.message).toEqual(expect.any(String));
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_monthly', subscription_end_date: expect.any(String) });

    const ended = await t.http().post('/api/dev/billing/end-period').set(user.auth).send();
    expect(ended.status).toBe(200);
    expect(await profile(user)).toMatchObject({ subscription_plan: 'free', subscription_id: null, credits: 5, extra_credits: 500 });
  });

  it('renewal resets the monthly allowance once', async () => {
    const user = newUser();
    await signIn(t, user);
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_annual' });
    await t.http().post(`${pathOf(checkout.body.url as string)}/complete`);
    await t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', 'm1');
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_annual', credits: 24 });
    expect((await t.http().post('/api/dev/billing/renew').set(user.auth).send()).status).toBe(200);
    expect(await profile(user)).toMatchObject({ credits: 25 });
  });

  it('a canceled checkout returns with canceled and changes nothing', async () => {
    const user = newUser();
    await signIn(t, user);
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' });
    const back = await t.http().post(`${pathOf(checkout.body.url as string)}/cancel`);
    expect(back.status).toBe(303);
    expect(back.headers['location']).toBe('http://app.test/pricing?canceled=true');
    expect((await t.http().post(`${pathOf(checkout.body.url as string)}/complete`)).status).toBe(404);
    expect(await profile(user)).toMatchObject({ subscription_plan: 'free' });
  });

  it('errors: free is not purchasable, portal without customer, cancel of another subscription', async () => {
    const user = newUser();
    await signIn(t, user);
    expect((await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'free' })).status).toBe(400);
    expect((await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({})).status).toBe(400);
    const portal = await t.http().post('/api/payment/create-customer-portal').set(user.auth).send();
    expect(portal.status).toBe(404);
    expect(portal.body).toMatchObject({ code: 'BILLING.NO_CUSTOMER', detail: 'No active subscription found. Please subscribe first.' });
    expect((await t.http().post('/api/cancel-subscription').set(user.auth).send({ subscriptionId: 'sub_x' })).status).toBe(404);
    expect((await t.http().post('/api/payment/create-checkout-session').send({ plan_id: 'pro_monthly' })).status).toBe(401);
    // The webhook refuses everything without a webhook secret.
    expect((await t.http().post('/api/payment/webhook').set('Content-Type', 'application/json').send('{}')).status).toBe(400);
  });
});

describe('payments in production without STRIPE_SECRET_KEY', () => {
  it('serves no local checkout and gives nothing away (500 on checkout)', async () => {
    const t = await startTestApp({ env: { NODE_ENV: 'production' }, overrides: { logLevel: 'silent' } });
    try {
      const user = newUser();
      await signIn(t, user);
      expect((await t.http().get('/local-checkout/cs_local_x')).status).toBe(404);
      expect((await t.http().post('/api/dev/billing/end-period').set(user.auth).send()).status).toBe(404);
      expect((await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' })).status).toBe(500);
    } finally {
      await t.close();
    }
  });
});
