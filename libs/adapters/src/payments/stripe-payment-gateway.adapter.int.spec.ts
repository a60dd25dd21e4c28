import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';
import { StripePaymentGateway, type StripePriceIds } from './stripe-payment-gateway.adapter.js';
import { StripeWebhookVerifier } from './stripe-webhook-verifier.adapter.js';

/** A local server standing in for api.stripe.com: records every request, answers canned objects. */
interface Seen {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

const PRICES: StripePriceIds = {
  pro_monthly: { USD: 'price_pm_usd', INR: 'price_pm_inr' },
  pro_annual: { USD: 'price_pa_usd', INR: 'price_pa_inr' },
  addon: { USD: 'price_addon_usd', INR: 'price_addon_inr' },
};

const START = 1_772_359_200; // 2026-03-01T10:00:00Z
const subscription = (over: Record<string, unknown> = {}) => ({
  id: 'sub_1',
  object: 'subscription',
  customer: 'cus_1',
  status: 'active',
  cancel_at_period_end: false,
  metadata: { user_id: 'user-1' },
  items: {
    object: 'list',
    data: [{ id: 'si_1', object: 'subscription_item', price: { id: 'price_pa_inr', object: 'price', recurring: { interval: 'year' } }, quantity: 2, current_period_start: START, current_period_end: START + 365 * 86400 }],
  },
  ...over,
});

/** Invoices as Stripe's API answers them (newest first), a draft among them. */
const stripeInvoice = (id: string, over: Record<string, unknown>) => ({
  id,
  object: 'invoice',
  customer: 'cus_1',
  number: `KILN-${id}`,
  status: 'paid',
  total: 2500,
  amount_paid: 2500,
  currency: 'usd',
  created: START,
  description: null,
  hosted_invoice_url: `https://invoice.stripe.test/${id}`,
  lines: { object: 'list', data: [{ id: `il_${id}`, object: 'line_item', description: '1 × Pro Monthly (at $25.00 / month)' }], has_more: false },
  ...over,
});
const INVOICES = [
  stripeInvoice('in_draft', { status: 'draft', number: null, created: START + 3 * 86400, hosted_invoice_url: null }),
  stripeInvoice('in_addon', { total: 49900, currency: 'inr', created: START + 2 * 86400, lines: { object: 'list', data: [{ id: 'il_a', object: 'line_item', description: '500 add-on credits' }], has_more: false } }),
  stripeInvoice('in_open', { status: 'open', created: START + 86400, lines: { object: 'list', data: [], has_more: false }, description: 'Renewal' }),
  stripeInvoice('in_1', {}),
];

describe('StripePaymentGateway against a local stand-in for the Stripe API', () => {
  let server: Server;
  let seen: Seen[] = [];
  let failNext = 0;
  let gateway: StripePaymentGateway;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const idem = req.headers['idempotency-key'];
        seen.push({
          method: req.method ?? '',
          path: url.pathname,
          body: new URLSearchParams(req.method === 'GET' ? url.search : raw),
          idempotencyKey: typeof idem === 'string' ? idem : undefined,
          authorization: req.headers.authorization,
        });
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (failNext > 0) {
          failNext -= 1;
          return send(500, { error: { type: 'api_error', message: 'try again' } });
        }
        if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') return send(200, { id: 'cs_1', object: 'checkout.session', url: 'https://checkout.test/cs_1' });
        if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') return send(200, { id: 'bps_1', object: 'billing_portal.session', url: 'https://portal.test/bps_1' });
        if (req.method === 'POST' && url.pathname === '/v1/subscriptions/sub_1') return send(200, subscription({ cancel_at_period_end: true }));
        if (req.method === 'GET' && url.pathname === '/v1/subscriptions/sub_1') return send(200, subscription());
        if (req.method === 'GET' && url.pathname === '/v1/subscriptions/search') return send(200, { object: 'search_result', data: [subscription()], has_more: false, url: '/v1/subscriptions/search' });
        if (req.method === 'GET' && url.pathname === '/v1/subscriptions') return send(200, { object: 'list', data: [], has_more: false, url: '/v1/subscriptions' });
        return send(404, { error: { type: 'invalid_request_error', message: 'no such route' } });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    gateway = new StripePaymentGateway({
      secretKey: 'sk_test_local',
      prices: PRICES,
      appUrl: 'http://app.test',
      endpoint: { host: '127.0.0.1', port, protocol: 'http' },
      maxNetworkRetries: 2,
    });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    seen = [];
    failNext = 0;
  });

  const customer = { userId: 'user-1', email: 'ana@example.com', customerId: null };

  it('creates a subscription checkout with the configured price, the user as client_reference_id and the idempotency key', async () => {
    const url = await gateway.createCheckoutSession({ planId: 'pro_monthly', currency: 'INR', customer, idempotencyKey: 'checkout:user-1:1', multiplier: 3 });
    expect(url).toBe('https://checkout.test/cs_1');
    expect(seen).toHaveLength(1);
    const [req] = seen;
    expect(req?.authorization).toBe('Bearer sk_test_local');
    expect(req?.idempotencyKey).toBe('checkout:user-1:1');
    expect(req?.body.get('mode')).toBe('subscription');
    expect(req?.body.get('client_reference_id')).toBe('user-1');
    expect(req?.body.get('customer_email')).toBe('ana@example.com');
    expect(req?.body.get('line_items[0][price]')).toBe('price_pm_inr');
    // 3x is the quantity: Stripe charges three times the price.
    expect(req?.body.get('line_items[0][quantity]')).toBe('3');
    expect(req?.body.get('subscription_data[metadata][user_id]')).toBe('user-1');
    expect(req?.body.get('success_url')).toBe('http://app.test/pricing?success=true');
    expect(req?.body.get('cancel_url')).toBe('http://app.test/pricing?canceled=true');
  });

  it('a retried call (the stand-in fails the first attempt) carries the same Idempotency-Key', async () => {
    failNext = 1;
    const url = await gateway.createCheckoutSession({ planId: 'pro_annual', currency: 'USD', customer: { ...customer, customerId: 'cus_1' }, idempotencyKey: 'checkout:user-1:2', multiplier: 1 });
    expect(url).toBe('https://checkout.test/cs_1');
    expect(seen).toHaveLength(2);
    expect(seen.map((s) => s.idempotencyKey)).toEqual(['checkout:user-1:2', 'checkout:user-1:2']);
    expect(seen[1]?.body.get('customer')).toBe('cus_1');
    expect(seen[1]?.body.get('line_items[0][price]')).toBe('price_pa_usd');
  });

  it('creates an add-on one-time payment checkout', async () => {
    await gateway.createAddOnPayment({ currency: 'USD', customer, idempotencyKey: 'addon:user-1:1' });
    expect(seen[0]?.body.get('mode')).toBe('payment');
    expect(seen[0]?.body.get('line_items[0][price]')).toBe('price_addon_usd');
    expect(seen[0]?.body.get('metadata[kind]')).toBe('add_on');
    expect(seen[0]?.idempotencyKey).toBe('addon:user-1:1');
  });

  it('opens the customer portal', async () => {
    expect(await gateway.createCustomerPortal({ customerId: 'cus_1', idempotencyKey: 'portal:1' })).toBe('https://portal.test/bps_1');
    expect(seen[0]?.body.get('customer')).toBe('cus_1');
    expect(seen[0]?.idempotencyKey).toBe('portal:1');
  });

  it('cancels at period end and reads the subscription back as a snapshot', async () => {
    const canceled = await gateway.cancelSubscription({ subscriptionId: 'sub_1', idempotencyKey: 'cancel:sub_1' });
    expect(seen[0]?.body.get('cancel_at_period_end')).toBe('true');
    expect(seen[0]?.idempotencyKey).toBe('cancel:sub_1');
    expect(canceled.cancelAtPeriodEnd).toBe(true);
    const fetched = await gateway.fetchSubscription('sub_1');
    expect(fetched).toEqual({
      id: 'sub_1',
      customerId: 'cus_1',
      planId: 'pro_annual',
      status: 'active',
      interval: 'annual',
      currentPeriodStart: new Date(START * 1000),
      currentPeriodEnd: new Date((START + 365 * 86400) * 1000),
      cancelAtPeriodEnd: false,
      // The item's quantity is the multiplier bought.
      multiplier: 2,
    });
    expect(seen[1]?.method).toBe('GET');
  });
});

describe('StripePaymentGateway.listInvoices (billing history)', () => {
  let server: Server;
  const seen: string[] = [];
  let down = false;
  let gateway: StripePaymentGateway;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      seen.push(`${req.method} ${url.pathname}?${url.searchParams.toString()} ${req.headers.authorization}`);
      const status = down ? 503 : url.pathname === '/v1/invoices' ? 200 : 404;
      res.writeHead(status, { 'content-type': 'application/json' });
      const data = url.searchParams.get('customer') === 'cus_1' ? INVOICES : [];
      res.end(JSON.stringify(status === 200 ? { object: 'list', data, has_more: false, url: url.pathname } : { error: { type: 'api_error', message: 'unavailable' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    gateway = new StripePaymentGateway({ secretKey: 'sk_test_local', prices: PRICES, appUrl: 'http://app.test', endpoint: { host: '127.0.0.1', port, protocol: 'http' }, maxNetworkRetries: 0 });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it("lists the customer's invoices through GET /v1/invoices: integer minor units, upper-case currency, drafts left out", async () => {
    const invoices = await gateway.listInvoices('cus_1');
    expect(seen[0]).toBe('GET /v1/invoices?customer=cus_1&limit=24 Bearer sk_test_local');
    expect(invoices).toEqual([
      { id: 'in_addon', number: 'KILN-in_addon', status: 'paid', amountMinor: 49900, currency: 'INR', description: '500 add-on credits', createdAt: new Date((START + 2 * 86400) * 1000), url: 'https://invoice.stripe.test/in_addon' },
      { id: 'in_open', number: 'KILN-in_open', status: 'open', amountMinor: 2500, currency: 'USD', description: 'Renewal', createdAt: new Date((START + 86400) * 1000), url: 'https://invoice.stripe.test/in_open' },
      { id: 'in_1', number: 'KILN-in_1', status: 'paid', amountMinor: 2500, currency: 'USD', description: '1 × Pro Monthly (at $25.00 / month)', createdAt: new Date(START * 1000), url: 'https://invoice.stripe.test/in_1' },
    ]);
    expect(await gateway.listInvoices('cus_none')).toEqual([]);
  });

  it('rejects when Stripe cannot answer (ListInvoices turns that into a 503)', async () => {
    down = true;
    try {
      await expect(gateway.listInvoices('cus_1')).rejects.toThrow();
    } finally {
      down = false;
    }
  });
});

describe('StripePaymentGateway.findLatestSubscription', () => {
  let server: Server;
  const paths: string[] = [];
  let gateway: StripePaymentGateway;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      paths.push(`${url.pathname}?${url.searchParams.toString()}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          url.pathname === '/v1/subscriptions/search'
            ? { object: 'search_result', data: [subscription()], has_more: false, url: url.pathname }
            : { object: 'list', data: [], has_more: false, url: url.pathname },
        ),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    gateway = new StripePaymentGateway({ secretKey: 'sk_test_local', prices: PRICES, appUrl: 'http://app.test', endpoint: { host: '127.0.0.1', port, protocol: 'http' } });
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('searches by the user id in the metadata when there is no customer yet, else lists the customer’s', async () => {
    expect((await gateway.findLatestSubscription({ userId: 'user-1', email: 'a@example.com', customerId: null }))?.id).toBe('sub_1');
    expect(await gateway.findLatestSubscription({ userId: 'user-1', email: 'a@example.com', customerId: 'cus_1' })).toBeNull();
    expect(paths[0]).toBe(`/v1/subscriptions/search?${new URLSearchParams({ query: "metadata['user_id']:'user-1'", limit: '1' }).toString()}`);
    expect(paths[1]).toBe('/v1/subscriptions?customer=cus_1&status=all&limit=1');
  });
});

describe('StripeWebhookVerifier', () => {
  const stripe = new Stripe('sk_test_local');
  const verifier = new StripeWebhookVerifier(stripe, 'whsec_test', PRICES);
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'customer.subscription.updated', created: START, data: { object: subscription() } });

  it('translates a correctly signed event', () => {
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test' });
    const r = verifier.verify(Buffer.from(payload), header);
    expect(r.ok && r.value).toMatchObject({ id: 'evt_1', type: 'subscription.updated', userId: 'user-1', occurredAt: new Date(START * 1000), subscription: { planId: 'pro_annual' } });
  });

  it('refuses a wrong secret, a changed body and a signature older than 300 s', () => {
    const wrong = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(verifier.verify(payload, wrong).ok).toBe(false);
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test' });
    expect(verifier.verify(JSON.stringify(JSON.parse(payload), null, 2), good).ok).toBe(false);
    const old = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test', timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(verifier.verify(payload, old).ok).toBe(false);
    expect(verifier.verify(payload, undefined).ok).toBe(false);
  });

  it('answers null for an event type Kiln does not handle', () => {
    const other = JSON.stringify({ id: 'evt_2', object: 'event', type: 'customer.created', created: START, data: { object: { id: 'cus_1', object: 'customer' } } });
    const r = verifier.verify(other, stripe.webhooks.generateTestHeaderString({ payload: other, secret: 'whsec_test' }));
    expect(r).toEqual({ ok: true, value: null });
  });
});
