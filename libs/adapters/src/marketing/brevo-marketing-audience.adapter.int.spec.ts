import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { marketingAudienceContract } from '@kiln/domain/contracts';
import { BrevoMarketingAudience } from './brevo-marketing-audience.adapter.js';
import { FakeBrevoServer } from './testing/fake-brevo-server.js';

marketingAudienceContract('BrevoMarketingAudience against a local Brevo', async () => {
  const server = await new FakeBrevoServer().start();
  return {
    audience: new BrevoMarketingAudience({ apiKey: server.apiKey, baseUrl: server.baseUrl, timeoutMs: 5000 }),
    contact: async (email) => (server.contact(email)?.attributes as never) ?? null,
    events: async (email) =>
      server.events.filter((e) => e.identifiers['email_id'] === email).map((e) => ({ name: e.event_name, properties: e.event_properties ?? {} })),
    breakIt: async () => {
      server.down = true;
    },
    repair: async () => {
      server.down = false;
    },
    close: () => server.stop(),
  };
});

describe('BrevoMarketingAudience wire details', () => {
  let server: FakeBrevoServer;
  let audience: BrevoMarketingAudience;

  beforeAll(async () => {
    server = await new FakeBrevoServer().start();
    audience = new BrevoMarketingAudience({ apiKey: server.apiKey, baseUrl: server.baseUrl, timeoutMs: 5000 });
  });
  afterAll(() => server.stop());

  it('sends the api-key header; a new contact is PUT (404), then POSTed with updateEnabled and the defaults', async () => {
    server.requests.length = 0;
    await audience.saveContact('Nia+kiln@example.com', { PLAN: 'free', SMS: '+15551234567' });
    expect(server.requests.map((r) => [r.method, r.path, r.apiKey])).toEqual([
      ['PUT', '/v3/contacts/Nia%2Bkiln%40example.com', server.apiKey],
      ['POST', '/v3/contacts', server.apiKey],
    ]);
    expect(server.requests[1]!.body).toEqual({
      email: 'Nia+kiln@example.com',
      attributes: { TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5, PLAN: 'free', SMS: '+15551234567' },
      updateEnabled: true,
    });
  });

  it('an existing contact takes one PUT with only the given attributes', async () => {
    await audience.saveContact('ola@example.com', {});
    server.requests.length = 0;
    await audience.saveContact('ola@example.com', { PROJECT_COUNT: 3 });
    expect(server.requests.map((r) => [r.method, r.body])).toEqual([['PUT', { attributes: { PROJECT_COUNT: 3 } }]]);
  });

  it('posts events to /v3/events with event_name, identifiers, event_properties and event_date', async () => {
    server.requests.length = 0;
    await audience.trackEvent({ eventName: 'plan_viewed', identifiers: { email_id: 'ola@example.com', ext_id: 'u-7' }, properties: { plan: 'pro_monthly' }, occurredAt: new Date('2026-03-01T10:00:00Z') });
    expect(server.requests).toEqual([
      {
        method: 'POST',
        path: '/v3/events',
        apiKey: server.apiKey,
        body: { event_name: 'plan_viewed', identifiers: { email_id: 'ola@example.com', ext_id: 'u-7' }, event_properties: { plan: 'pro_monthly' }, event_date: '2026-03-01T10:00:00.000Z' },
      },
    ]);
  });

  it('rejects a wrong key (401) and an attribute the account lacks (400), changing nothing', async () => {
    const wrongKey = new BrevoMarketingAudience({ apiKey: 'xkeysib-wrong', baseUrl: server.baseUrl, timeoutMs: 5000 });
    await expect(wrongKey.saveContact('pia@example.com', {})).rejects.toMatchObject({ statusCode: 401 });
    await expect(audience.saveContact('pia@example.com', { NICKNAME: 'P' } as never)).rejects.toMatchObject({ statusCode: 400 });
    expect(server.contact('pia@example.com')).toBeNull();
  });

  it('rejects when nothing listens on the port', async () => {
    const closed = new BrevoMarketingAudience({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v3', timeoutMs: 2000 });
    await expect(closed.saveContact('q@example.com', {})).rejects.toThrow();
  });
});
