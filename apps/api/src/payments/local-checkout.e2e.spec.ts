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
  /** The page's path with its capability (`?token=`), as the browser opens it. */
  const pageOf = (url: string) => `${new URL(url).pathname}${new URL(url).search}`;
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';
  /** A button of the page: a form post carrying the link's capability, as the page's forms do. */
  const press = (url: string, action: 'complete' | 'cancel', token = tokenOf(url)) => t.http().post(`${pathOf(url)}/${action}`).type('form').send({ token });

  it('subscribe → pro_monthly with 25 credits; add-on +500; cancel → at period end back to free with the add-on kept', async () => {
    const user = newUser('Ana');
    await signIn(t, user);

    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).toMatch(/^http:\/\/localhost:\d+\/local-checkout\/cs_local_[\w-]+\?token=[\w.-]+$/);
    const page = await t.http().get(pageOf(checkout.body.url as string));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('TEST CHECKOUT');
    expect(page.text).toContain('Pro Monthly');
    expect(page.text).toContain('$25 / month');
    expect(page.text).toContain(`>${LOCAL_CHECKOUT_BUTTONS.pay}</button>`);
    expect(page.text).toContain(`>${LOCAL_CHECKOUT_BUTTONS.cancel}</button>`);
    expect(page.text).toContain(`<input type="hidden" name="token" value="${tokenOf(checkout.body.url as string)}">`);

    const paid = await press(checkout.body.url as string, 'complete');
    expect(paid.status).toBe(303);
    expect(paid.headers['location']).toBe('http://app.test/pricing?success=true');
    const pro = await profile(user);
    expect(pro).toMatchObject({ subscription_plan: 'pro_monthly', subscription_status: 'active', billing_interval: 'monthly', credits: 25 });
    expect(pro['customer_id']).toBe(`cus_local_${user.id}`);
    // Paying the same checkout again changes nothing.
    expect((await press(checkout.body.url as string, 'complete')).status).toBe(303);
    expect(await profile(user)).toMatchObject({ credits: 25 });

    const link = await t.http().post('/api/payment/create-payment-link').set(user.auth).send();
    expect(link.status).toBe(200);
    const addOn = await press(link.body.paymentLink as string, 'complete');
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
    expect(portal.body.link.link).toMatch(/\/local-checkout\/portal\/cus_local_[\w-]+\?token=[\w.-]+$/);
    const portalPage = await t.http().get(pageOf(portal.body.link.link as string));
    expect(portalPage.status).toBe(200);
    expect(portalPage.text).toContain(`>${LOCAL_CHECKOUT_BUTTONS.cancelSubscription}</button>`);

    const cancel = await t.http().post('/api/cancel-subscription').set(user.auth).send({ subscriptionId: pro['subscription_id'] });
    expect(cancel.status).toBe(200);
    expect(cancel.body.message).toEqual(expect.any(String));
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_monthly', subscription_end_date: expect.any(String) });

    const ended = await t.http().post('/api/dev/billing/end-period').set(user.auth).send();
    expect(ended.status).toBe(200);
    expect(await profile(user)).toMatchObject({ subscription_plan: 'free', subscription_id: null, credits: 5, extra_credits: 500 });
  });

  it('the 1x/2x/3x multiplier chosen at checkout: the multiplied price is charged, the profile gets the multiplier and its prompts', async () => {
    const user = newUser();
    await signIn(t, user);
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly', multiplier: 3 });
    expect(checkout.status).toBe(200);
    const page = await t.http().get(pageOf(checkout.body.url as string));
    expect(page.text).toContain('Pro Monthly 3x');
    expect(page.text).toContain('$75 / month');
    await press(checkout.body.url as string, 'complete');
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_monthly', pro_multiplier: 3, credits: 75 });
    // Only 1, 2 or 3, refused before anything is opened.
    for (const multiplier of [0, 4, 2.5, '2']) {
      const refused = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly', multiplier });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: expect.stringMatching(/multiplier: must be 1, 2 or 3/) });
    }
  });

  it('GET /api/payment/invoices: empty before any payment, then the local invoices newest first, only the caller’s', async () => {
    const ana = newUser('Ana');
    const ben = newUser('Ben');
    await signIn(t, ana);
    await signIn(t, ben);
    expect((await t.http().get('/api/payment/invoices').set(ana.auth)).body).toEqual({ invoices: [] });
    expect((await t.http().get('/api/payment/invoices')).status).toBe(401);

    const checkout = await t.http().post('/api/payment/create-checkout-session').set(ana.auth).send({ plan_id: 'pro_monthly' });
    await press(checkout.body.url as string, 'complete');
    const link = await t.http().post('/api/payment/create-payment-link').set(ana.auth).send();
    await press(link.body.paymentLink as string, 'complete');
    const bens = await t.http().post('/api/payment/create-checkout-session').set(ben.auth).send({ plan_id: 'pro_annual' });
    await press(bens.body.url as string, 'complete');

    const history = await t.http().get('/api/payment/invoices').set(ana.auth);
    expect(history.status).toBe(200);
    const invoices = history.body.invoices as Record<string, unknown>[];
    expect(invoices.map((i) => [i['description'], i['amount_minor'], i['currency'], i['status']]).sort()).toEqual([
      ['500 add-on credits', 999, 'USD', 'paid'],
      ['Pro Monthly', 2500, 'USD', 'paid'],
    ]);
    expect(invoices[0]).toEqual({ id: expect.stringMatching(/^in_local_cs_local_/), number: null, status: 'paid', amount_minor: expect.any(Number), currency: 'USD', description: expect.any(String), created_at: expect.stringMatching(/Z$/), url: null });
    const times = invoices.map((i) => Date.parse(i['created_at'] as string));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(((await t.http().get('/api/payment/invoices').set(ben.auth)).body.invoices as unknown[]).length).toBe(1);
  });

  it('renewal resets the monthly allowance once', async () => {
    const user = newUser();
    await signIn(t, user);
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_annual' });
    await press(checkout.body.url as string, 'complete');
    await t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', 'm1');
    expect(await profile(user)).toMatchObject({ subscription_plan: 'pro_annual', credits: 24 });
    expect((await t.http().post('/api/dev/billing/renew').set(user.auth).send()).status).toBe(200);
    expect(await profile(user)).toMatchObject({ credits: 25 });
  });

  it('a canceled checkout returns with canceled and changes nothing', async () => {
    const user = newUser();
    await signIn(t, user);
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' });
    const back = await press(checkout.body.url as string, 'cancel');
    expect(back.status).toBe(303);
    expect(back.headers['location']).toBe('http://app.test/pricing?canceled=true');
    expect((await press(checkout.body.url as string, 'complete')).status).toBe(404);
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

describe('local test checkout: only the owner', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEB_ORIGIN: 'http://app.test' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const profile = async (user: TestUser) => (await t.http().get('/api/profile').set(user.auth)).body as Record<string, unknown>;
  const pathOf = (url: string) => new URL(url).pathname;
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';
  const checkoutOf = async (user: TestUser, planId = 'pro_monthly') => {
    const response = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: planId });
    expect(response.status).toBe(200);
    return response.body.url as string;
  };
  const ownerAndOther = async () => {
    const ana = newUser('Ana');
    const ben = newUser('Ben');
    await signIn(t, ana);
    await signIn(t, ben);
    return { ana, ben, anasCheckout: await checkoutOf(ana), bensCheckout: await checkoutOf(ben) };
  };

  it("another user cannot open, pay or cancel someone's checkout (404, as for no checkout), and nothing changes", async () => {
    const { ana, ben, anasCheckout, bensCheckout } = await ownerAndOther();
    const anas = pathOf(anasCheckout);
    // Ben holds his own valid capability and tries it on Ana's session.
    const bens = tokenOf(bensCheckout);
    expect((await t.http().get(anas).query({ token: bens })).status).toBe(404);
    const pay = await t.http().post(`${anas}/complete`).type('form').send({ token: bens });
    expect(pay.status).toBe(404);
    expect(pay.body).toMatchObject({ code: 'NOT_FOUND', detail: `No test checkout ${anas.split('/').pop()}` });
    expect((await t.http().post(`${anas}/cancel`).type('form').send({ token: bens })).status).toBe(404);
    expect(await profile(ana)).toMatchObject({ subscription_plan: 'free' });
    expect(await profile(ben)).toMatchObject({ subscription_plan: 'free' });
    // A session that does not exist answers the same.
    const unknown = await t.http().post('/local-checkout/cs_local_nope/complete').type('form').send({ token: bens });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    // Ana still can.
    expect((await t.http().post(`${anas}/complete`).type('form').send({ token: tokenOf(anasCheckout) })).status).toBe(303);
    expect(await profile(ana)).toMatchObject({ subscription_plan: 'pro_monthly' });
  });

  it('an anonymous request cannot open, cancel or pay a checkout (no token, a made-up one, one in the query of a post)', async () => {
    const { ana, anasCheckout } = await ownerAndOther();
    const anas = pathOf(anasCheckout);
    expect((await t.http().get(anas)).status).toBe(404);
    expect((await t.http().post(`${anas}/cancel`)).status).toBe(404);
    expect((await t.http().post(`${anas}/cancel`).type('form').send({ token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' })).status).toBe(404);
    expect((await t.http().post(`${anas}/complete`)).status).toBe(404);
    // The capability is a form field of the page's buttons, not a query parameter of theirs.
    expect((await t.http().post(`${anas}/cancel`).query({ token: tokenOf(anasCheckout) })).status).toBe(404);
    expect(await profile(ana)).toMatchObject({ subscription_plan: 'free' });
    // The session was neither canceled nor paid: Ana can still pay it.
    expect((await t.http().post(`${anas}/complete`).type('form').send({ token: tokenOf(anasCheckout) })).status).toBe(303);
  });

  it("a capability opens only its own session, even the same user's other one", async () => {
    const ana = newUser();
    await signIn(t, ana);
    const first = await checkoutOf(ana);
    const link = await t.http().post('/api/payment/create-payment-link').set(ana.auth).send();
    const addOn = link.body.paymentLink as string;
    expect((await t.http().post(`${pathOf(addOn)}/complete`).type('form').send({ token: tokenOf(first) })).status).toBe(404);
    expect(await profile(ana)).toMatchObject({ extra_credits: 0 });
  });

  it("the customer portal opens only with its customer's capability; another user cannot cancel through it", async () => {
    const { ana, ben, anasCheckout, bensCheckout } = await ownerAndOther();
    await t.http().post(`${pathOf(anasCheckout)}/complete`).type('form').send({ token: tokenOf(anasCheckout) });
    await t.http().post(`${pathOf(bensCheckout)}/complete`).type('form').send({ token: tokenOf(bensCheckout) });
    const anasPortal = (await t.http().post('/api/payment/create-customer-portal').set(ana.auth).send()).body.link.link as string;
    const bensPortal = (await t.http().post('/api/payment/create-customer-portal').set(ben.auth).send()).body.link.link as string;
    const subscriptionId = (await profile(ana))['subscription_id'] as string;
    const cancelPath = `${pathOf(anasPortal)}/cancel/${subscriptionId}`;

    expect((await t.http().get(pathOf(anasPortal))).status).toBe(404);
    expect((await t.http().get(pathOf(anasPortal)).query({ token: tokenOf(bensPortal) })).status).toBe(404);
    expect((await t.http().post(cancelPath)).status).toBe(404);
    expect((await t.http().post(cancelPath).type('form').send({ token: tokenOf(bensPortal) })).status).toBe(404);
    // A checkout capability is not a portal one.
    expect((await t.http().post(cancelPath).type('form').send({ token: tokenOf(anasCheckout) })).status).toBe(404);
    expect((await t.http().post('/api/payment/force-update-subscription').set(ana.auth).send()).body).toMatchObject({ subscription: { cancel_at_period_end: false } });

    const page = await t.http().get(pathOf(anasPortal)).query({ token: tokenOf(anasPortal) });
    expect(page.status).toBe(200);
    expect(page.text).toContain(subscriptionId);
    const canceled = await t.http().post(cancelPath).type('form').send({ token: tokenOf(anasPortal) });
    expect(canceled.status).toBe(303);
    expect(canceled.headers['location']).toBe(`${pathOf(anasPortal)}?token=${encodeURIComponent(tokenOf(anasPortal))}`);
    expect((await t.http().post('/api/payment/force-update-subscription').set(ana.auth).send()).body).toMatchObject({ subscription: { cancel_at_period_end: true } });
  });

  it("dev billing acts only on the caller's own subscription", async () => {
    const { ana, ben, anasCheckout } = await ownerAndOther();
    await t.http().post(`${pathOf(anasCheckout)}/complete`).type('form').send({ token: tokenOf(anasCheckout) });
    await t.http().post('/api/credits/consume').set(ana.auth).set('Idempotency-Key', 'a1');
    expect(await profile(ana)).toMatchObject({ credits: 24 });
    // Ben (no subscription) cannot renew or end anyone's period, whatever he names in the request.
    for (const route of ['/api/dev/billing/renew', '/api/dev/billing/end-period']) {
      const response = await t.http().post(route).set(ben.auth).query({ user_id: ana.id }).send({ user_id: ana.id, subscription_id: (await profile(ana))['subscription_id'] });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('BILLING.NO_SUBSCRIPTION');
      expect((await t.http().post(route).send()).status).toBe(401);
    }
    expect(await profile(ana)).toMatchObject({ subscription_plan: 'pro_monthly', credits: 24 });
    expect((await t.http().post('/api/dev/billing/renew').set(ana.auth).send()).status).toBe(200);
    expect(await profile(ana)).toMatchObject({ credits: 25 });
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
