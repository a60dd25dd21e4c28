import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { FakeIpWhoIsServer } from '@kiln/adapters/testing';
import { type TestApp, type TestUser, newUser, signIn, startTestApp } from '../testing/e2e.js';

/**
 * SPEC §7/§9: the currency is decided on the server from an IP lookup (a local ipwho.is here;
 * requests come from 127.0.0.1, so the fake places "any address") and checkout charges it.
 */
describe('checkout currency (HTTP, local ipwho.is)', () => {
  let geo: FakeIpWhoIsServer;
  let t: TestApp;

  beforeAll(async () => {
    geo = await new FakeIpWhoIsServer().start();
    t = await startTestApp({ env: { GEOLOCATION_URL: geo.urlTemplate, GEOLOCATION_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await t.close();
    await geo.stop();
  });
  afterEach(() => {
    geo.failWith = null;
    geo.anyAddress = null;
    jest.restoreAllMocks();
  });

  const decide = (user: TestUser) => t.http().post('/api/pricing/currency').set(user.auth);
  const preferred = async (user: TestUser) => (await t.http().get('/api/profile').set(user.auth)).body.preferred_currency as string;
  /** The local checkout page the checkout URL opens (it prints the amount charged). */
  const checkoutPage = async (user: TestUser) => {
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' });
    expect(checkout.status).toBe(200);
    const url = new URL(checkout.body.url as string);
    return (await t.http().get(`${url.pathname}${url.search}`)).text;
  };

  it('an Indian visitor is shown INR and charged ₹2,499', async () => {
    geo.anyAddress = { countryCode: 'IN', country: 'India', city: 'Mumbai' };
    const anonymous = await t.http().get('/api/pricing/currency');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ currency: 'INR', country_code: 'IN', error: null });
    expect(geo.requests.at(-1)).toEqual({ path: '/127.0.0.1', accept: 'application/json' });

    const user = newUser('Asha');
    await signIn(t, user);
    const decided = await decide(user);
    expect(decided.status).toBe(200);
    expect(decided.body).toEqual({ currency: 'INR', country_code: 'IN', error: null });
    expect(await preferred(user)).toBe('INR');
    expect(await checkoutPage(user)).toContain('₹2,499 / month');
  });

  it('a visitor elsewhere is shown USD and charged $25', async () => {
    geo.anyAddress = { countryCode: 'US', country: 'United States', city: 'Austin' };
    const user = newUser('Ben');
    await signIn(t, user);
    expect((await decide(user)).body).toEqual({ currency: 'USD', country_code: 'US', error: null });
    expect(await preferred(user)).toBe('USD');
    expect(await checkoutPage(user)).toContain('$25 / month');
  });

  it("the lookup service down → USD with country null, 'HTTP error! status: 503' returned and logged", async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const user = newUser('Chandra');
    await signIn(t, user);
    geo.anyAddress = { countryCode: 'IN', country: 'India', city: 'Pune' };
    await decide(user);
    expect(await preferred(user)).toBe('INR');

    geo.failWith = { status: 503 };
    const decided = await decide(user);
    expect(decided.status).toBe(200);
    expect(decided.body).toEqual({ currency: 'USD', country_code: null, error: 'HTTP error! status: 503' });
    expect(warn).toHaveBeenCalledWith('HTTP error! status: 503; checkout falls back to USD');
    // Shown USD, so charged USD.
    expect(await preferred(user)).toBe('USD');
    expect(await checkoutPage(user)).toContain('$25 / month');
  });

  it("an unsuccessful reply → 'Location detection failed', USD", async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    geo.failWith = 'unsuccessful';
    expect((await t.http().get('/api/pricing/currency')).body).toEqual({ currency: 'USD', country_code: null, error: 'Location detection failed' });
  });

  it('checkout refuses (409) to charge another currency than the one shown', async () => {
    geo.anyAddress = { countryCode: 'IN', country: 'India', city: 'Chennai' };
    const user = newUser('Devi');
    await signIn(t, user);
    await decide(user);
    const checkout = (currency: string) => t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly', currency });
    const refused = await checkout('USD');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'BILLING.CURRENCY_CHANGED', detail: 'Prices are now shown in INR. Please review the price and try again.' });
    expect((await checkout('INR')).status).toBe(200);
    expect((await checkout('EUR')).status).toBe(400);
  });

  it('storing the decision needs a signed-in caller', async () => {
    expect((await t.http().post('/api/pricing/currency')).status).toBe(401);
  });
});

describe('checkout currency (HTTP, lookup service unreachable)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { GEOLOCATION_URL: 'http://127.0.0.1:9/{ip}' } });
  });
  afterAll(() => t.close());

  it("answers USD with 'Failed to detect location'", async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    expect((await t.http().get('/api/pricing/currency')).body).toEqual({ currency: 'USD', country_code: null, error: 'Failed to detect location' });
    jest.restoreAllMocks();
  });
});

describe('checkout currency (HTTP, no GEOLOCATION_URL)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('locates nobody: USD, country null, no error', async () => {
    expect((await t.http().get('/api/pricing/currency')).body).toEqual({ currency: 'USD', country_code: null, error: null });
  });
});
