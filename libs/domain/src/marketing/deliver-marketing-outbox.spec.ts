import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryMarketingAudience, InMemoryMarketingOutbox } from '../testing/in-memory-marketing.js';
import { DeliverMarketingOutbox } from './deliver-marketing-outbox.use-case.js';
import { FailedContactCache } from './failed-contact-cache.js';

function setup() {
  const clock = new FixedClock('2026-03-01T10:00:00Z');
  const outbox = new InMemoryMarketingOutbox();
  const audience = new InMemoryMarketingAudience();
  const warnings: string[] = [];
  const failed = new FailedContactCache(clock);
  const deliver = new DeliverMarketingOutbox(outbox, audience, clock, failed, { warn: (m) => warnings.push(m) });
  return { clock, outbox, audience, warnings, failed, deliver };
}

describe('DeliverMarketingOutbox', () => {
  it('delivers contacts, events and removals in the order they were queued', async () => {
    const { clock, outbox, audience, deliver } = setup();
    await outbox.enqueue({ kind: 'contact', email: 'ana@example.com', attributes: { PLAN: 'free' } }, clock.now());
    await outbox.enqueue({ kind: 'event', email: 'ana@example.com', event: { eventName: 'opened', identifiers: { email_id: 'ana@example.com' }, properties: {}, occurredAt: clock.now() } }, clock.now());
    await outbox.enqueue({ kind: 'contact', email: 'bo@example.com', attributes: { PLAN: 'pro_monthly' } }, clock.now());
    await outbox.enqueue({ kind: 'remove', email: 'bo@example.com' }, clock.now());
    expect(await deliver.execute()).toEqual({ delivered: 4, failed: 0, deferred: 0 });
    expect(audience.contact('ana@example.com')).toEqual({ PLAN: 'free', TOTAL_PROMPTS_USED: 0, PROMPTS_BALANCE: 5 });
    expect(audience.tracked.map((e) => e.eventName)).toEqual(['opened']);
    expect(audience.contact('bo@example.com')).toBeNull();
    expect(await deliver.execute()).toEqual({ delivered: 0, failed: 0, deferred: 0 });
  });

  it('an update made while the audience is down is delivered once it is back (backoff, failed-contact cache)', async () => {
    const { clock, outbox, audience, deliver, warnings, failed } = setup();
    audience.down = true;
    await outbox.enqueue({ kind: 'contact', email: 'ana@example.com', attributes: { PLAN: 'pro_annual' } }, clock.now());
    expect(await deliver.execute()).toEqual({ delivered: 0, failed: 1, deferred: 0 });
    expect(warnings).toEqual([expect.stringContaining('retried later: marketing audience unreachable')]);
    expect(failed.has('ana@example.com')).toBe(true);
    expect((await outbox.pending('ana@example.com'))[0]?.attempts).toBe(1);

    audience.down = false;
    clock.advance(29_000); // the first retry waits 30 s
    expect(await deliver.execute()).toEqual({ delivered: 0, failed: 0, deferred: 0 });
    clock.advance(1_000); // due, but the contact failed less than 5 minutes ago
    expect(await deliver.execute()).toEqual({ delivered: 0, failed: 0, deferred: 1 });
    expect(audience.contact('ana@example.com')).toBeNull();

    clock.advance(5 * 60_000); // the cache has cleared and the lease has ended
    expect(await deliver.execute()).toEqual({ delivered: 1, failed: 0, deferred: 0 });
    expect(audience.contact('ana@example.com')).toMatchObject({ PLAN: 'pro_annual' });
    expect(await outbox.pending('ana@example.com')).toEqual([]);
  });

  it('one contact failing does not hold back the others', async () => {
    const { clock, outbox, audience, deliver } = setup();
    const refusing = new Set(['bad@example.com']);
    const save = audience.saveContact.bind(audience);
    audience.saveContact = async (email, attributes) => {
      if (refusing.has(email)) throw new Error('invalid_parameter');
      return save(email, attributes);
    };
    await outbox.enqueue({ kind: 'contact', email: 'bad@example.com', attributes: { PLAN: 'free' } }, clock.now());
    await outbox.enqueue({ kind: 'contact', email: 'ok@example.com', attributes: { PLAN: 'free' } }, clock.now());
    expect(await deliver.execute()).toEqual({ delivered: 1, failed: 1, deferred: 0 });
    expect(audience.contact('ok@example.com')).not.toBeNull();
  });
});
