import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { FakeBrevoServer } from '@kiln/adapters/testing';
import { DeliverMarketingOutbox } from '@kiln/domain';
import { FixedClock } from '@kiln/domain/testing';
import { type TestApp, newUser, signIn, startTestApp } from '../testing/e2e.js';

jest.setTimeout(60_000);

const deliver = (t: TestApp) => t.app.get(DeliverMarketingOutbox).execute();
const devView = async (t: TestApp, email: string) => (await t.http().get('/api/dev/marketing').query({ email }).expect(200)).body;

describe('marketing contacts (local store, the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('sign-up makes a contact with 0 prompts used and a balance of 5; a prompt used updates it', async () => {
    const user = newUser('Asha Rao');
    await signIn(t, user);
    expect((await devView(t, user.email)).pending).toEqual([{ id: expect.any(String), kind: 'contact', attempts: 0 }]);
    await deliver(t);
    const [contact] = (await devView(t, user.email)).contacts;
    expect(contact.attributes).toMatchObject({ FIRSTNAME: 'Asha', LASTNAME: 'Rao', PLAN: 'free', TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5, PROJECT_COUNT: 0, EXT_ID: user.id });

    await t.http().post('/api/credits/consume').set(user.auth).set('Idempotency-Key', 'prompt-1').expect(200);
    await deliver(t);
    const after = (await devView(t, user.email)).contacts[0];
    expect(after.attributes).toMatchObject({ TOTAL_PROMPTS_USED: 1, PROMPTS_BALANCE: 4, LAST_PROMPT_USED_TIMESTAMP: expect.any(String) });
    expect((await devView(t, user.email)).pending).toEqual([]);
  });

  it('a plan bought and add-on credits purchased (local test checkout) update the contact', async () => {
    const user = newUser();
    await signIn(t, user);
    const press = (url: string) => t.http().post(`${new URL(url).pathname}/complete`).type('form').send({ token: new URL(url).searchParams.get('token') ?? '' });
    const checkout = await t.http().post('/api/payment/create-checkout-session').set(user.auth).send({ plan_id: 'pro_monthly' }).expect(200);
    await press(checkout.body.url as string).expect(303);
    await deliver(t);
    const day = expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/);
    expect((await devView(t, user.email)).contacts[0].attributes).toMatchObject({ PLAN: 'pro_monthly', PROMPTS_BALANCE: 25, CREDIT_BALANCE: 25, FIRST_PURCHASE_DATE: day, BILLING_CYCLE_START_DATE: day });

    const link = await t.http().post('/api/payment/create-payment-link').set(user.auth).send().expect(200);
    await press(link.body.paymentLink as string).expect(303);
    await deliver(t);
    expect((await devView(t, user.email)).contacts[0].attributes).toMatchObject({ PLAN: 'pro_monthly', PROMPTS_BALANCE: 25, CREDIT_BALANCE: 525 });
  });

  it('PUT /api/brevo/update-contact takes every SPEC §3 attribute; phones get +1 unless they start with + or 00', async () => {
    const user = newUser();
    await signIn(t, user);
    const response = await t.http().put('/api/brevo/update-contact').set(user.auth).send({
      email: user.email.toUpperCase(),
      attributes: { SMS: '5551234567', WHATSAPP: '00919876543210', COUNTRY: 'IN', CONTACT_TIMEZONE: 'Asia/Kolkata', TOTAL_PURCHASE_VALUE: 2500, LINKEDIN: 'https://linkedin.com/in/x' },
    });
    expect([response.status, response.body]).toEqual([200, { success: true, error: null }]);
    await deliver(t);
    expect((await devView(t, user.email)).contacts[0].attributes).toMatchObject({
      SMS: '+15551234567',
      WHATSAPP: '00919876543210',
      COUNTRY: 'IN',
      TOTAL_PURCHASE_VALUE: 2500,
      TOTAL_PROMPTS_USED: 0,
      PROMPTS_BALANCE: 5,
    });
  });

  it.each([
    [{ attributes: { TOTAL_PROMPTS_USED: -1 } }, 400, 'VALIDATION_FAILED', 'attributes.TOTAL_PROMPTS_USED: must not be less than 0'],
    [{ attributes: { PROMPTS_BALANCE: 2.5 } }, 400, 'VALIDATION_FAILED', 'attributes.PROMPTS_BALANCE: must be a whole number'],
    [{ attributes: { NICKNAME: 'x' } }, 400, 'VALIDATION_FAILED', 'attributes.NICKNAME: is not allowed'],
    [{ attributes: {}, email: 'someone-else@example.com' }, 403, 'MARKETING.NOT_YOUR_CONTACT', 'You can only update your own marketing contact'],
  ])('update-contact refuses %j', async (body, status, code, detail) => {
    const user = newUser();
    const response = await t.http().put('/api/brevo/update-contact').set(user.auth).send({ email: user.email, ...body });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code, detail });
    if (status === 403) expect(response.body).toMatchObject({ success: false, error: detail });
  });

  it('POST /api/brevo/track-event records the event for the caller', async () => {
    const user = newUser();
    await signIn(t, user);
    const response = await t.http().post('/api/brevo/track-event').set(user.auth).send({ event_name: 'project_published', identifiers: { email_id: user.email }, event_properties: { pages: 2, plan: 'free' } });
    expect([response.status, response.body]).toEqual([200, { success: true, error: null }]);
    await deliver(t);
    expect((await devView(t, user.email)).events).toEqual([
      { email: user.email, event_name: 'project_published', identifiers: { email_id: user.email, ext_id: user.id }, event_properties: { pages: 2, plan: 'free' }, occurred_at: expect.any(String) },
    ]);
    const empty = await t.http().post('/api/brevo/track-event').set(user.auth).send({ event_name: '  ', identifiers: {} });
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.http().put('/api/brevo/update-contact').send({ email: 'a@example.com', attributes: {} })).status).toBe(401);
    expect((await t.http().post('/api/brevo/track-event').send({ event_name: 'x', identifiers: {} })).status).toBe(401);
  });
});

describe('/api/dev/marketing outside development', () => {
  it('does not exist when NODE_ENV is production (404), and answers only this machine', async () => {
    const prod = await startTestApp({ env: { NODE_ENV: 'production' }, overrides: { logLevel: 'silent' } });
    try {
      expect((await prod.http().get('/api/dev/marketing')).status).toBe(404);
    } finally {
      await prod.close();
    }
    const dev = await startTestApp({ overrides: { logLevel: 'silent' } });
    try {
      const relayed = await dev.http().get('/api/dev/marketing').set('X-Forwarded-For', '203.0.113.9');
      expect([relayed.status, relayed.body.code]).toEqual([403, 'DEV.LOOPBACK_ONLY']);
    } finally {
      await dev.close();
    }
  });
});

describe('marketing contacts on Brevo (a local Brevo server)', () => {
  const brevo = new FakeBrevoServer();
  const clock = new FixedClock(new Date('2026-03-01T10:00:00Z'));
  let t: TestApp;
  beforeAll(async () => {
    await brevo.start();
    t = await startTestApp({ env: { BREVO_API_KEY: brevo.apiKey, BREVO_BASE_URL: brevo.baseUrl }, overrides: { clock } });
  });
  afterEach(() => {
    brevo.down = false;
  });
  afterAll(async () => {
    await t.close();
    await brevo.stop();
  });

  it('an update made while Brevo is down is delivered once it is back; the person never sees the outage', async () => {
    const user = newUser('Ola Nordmann');
    await brevo.stop();
    await signIn(t, user); // sign-up works while Brevo is unreachable
    const put = await t.http().put('/api/brevo/update-contact').set(user.auth).send({ email: user.email, attributes: { SMS: '5550001111' } });
    expect(put.body).toEqual({ success: true, error: null });
    expect(await deliver(t)).toEqual({ delivered: 0, failed: 1, deferred: 0 });
    expect((await devView(t, user.email)).pending).toEqual([
      { id: expect.any(String), kind: 'contact', attempts: 1 },
      { id: expect.any(String), kind: 'contact', attempts: 0 },
    ]);

    await brevo.start();
    clock.advance(31_000); // due again, but the failed-contact cache holds the contact for 5 minutes
    expect(await deliver(t)).toEqual({ delivered: 0, failed: 0, deferred: 1 });
    clock.advance(5 * 60_000);
    expect(await deliver(t)).toEqual({ delivered: 2, failed: 0, deferred: 0 });
    expect(brevo.contact(user.email)?.attributes).toMatchObject({ FIRSTNAME: 'Ola', PLAN: 'free', TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5, SMS: '+15550001111', EXT_ID: user.id });
    expect(brevo.requests.every((r) => r.apiKey === brevo.apiKey)).toBe(true);
    // nothing went to the local store
    expect((await devView(t, user.email)).contacts).toEqual([]);
  });
});
