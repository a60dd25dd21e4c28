import { describe, expect, it } from '@jest/globals';
import { FixedClock } from '../testing/fixed-clock.js';
import { InMemoryMarketingOutbox } from '../testing/in-memory-marketing.js';
import { TrackMarketingEvent, UpdateMarketingContact } from './marketing-requests.use-case.js';

const caller = { userId: 'u-1', email: 'Asha@Example.com' };

function setup() {
  const clock = new FixedClock('2026-03-01T10:00:00Z');
  const outbox = new InMemoryMarketingOutbox();
  return { clock, outbox, update: new UpdateMarketingContact(outbox, clock), track: new TrackMarketingEvent(outbox, clock) };
}

describe('UpdateMarketingContact (PUT /api/brevo/update-contact)', () => {
  it('queues the caller’s attributes: phones get +1 unless they start with + or 00, EXT_ID is the caller', async () => {
    const { update, outbox } = setup();
    const result = await update.execute({
      caller,
      email: 'asha@example.com',
      attributes: { SMS: '5551234567', WHATSAPP: '+919876543210', LANDLINE_NUMBER: '0044207946', COUNTRY: ' IN ', TOTAL_PURCHASE_VALUE: 2500, EXT_ID: 'someone-else', LINKEDIN: null },
    });
    expect(result).toEqual({ ok: true, value: undefined });
    expect((await outbox.pending('asha@example.com')).map((p) => p.delivery)).toEqual([
      {
        kind: 'contact',
        email: 'Asha@Example.com',
        attributes: { SMS: '+15551234567', WHATSAPP: '+919876543210', LANDLINE_NUMBER: '0044207946', COUNTRY: 'IN', TOTAL_PURCHASE_VALUE: 2500, EXT_ID: 'u-1' },
      },
    ]);
  });

  it.each([
    [{ email: '  ', attributes: {} }, 'MARKETING.EMAIL_REQUIRED'],
    [{ email: 'other@example.com', attributes: {} }, 'MARKETING.NOT_YOUR_CONTACT'],
    [{ email: 'asha@example.com', attributes: { FAVOURITE: 'x' } }, 'MARKETING.INVALID_ATTRIBUTE'],
    [{ email: 'asha@example.com', attributes: { PROJECT_COUNT: 1.5 } }, 'MARKETING.INVALID_ATTRIBUTE'],
    [{ email: 'asha@example.com', attributes: { TOTAL_PROMPTS_USED: -1 } }, 'MARKETING.INVALID_ATTRIBUTE'],
    [{ email: 'asha@example.com', attributes: { PLAN: 5 } }, 'MARKETING.INVALID_ATTRIBUTE'],
  ])('refuses %j with %s and queues nothing', async (input, code) => {
    const { update, outbox } = setup();
    const result = await update.execute({ caller, ...input });
    expect(!result.ok && result.error.code).toBe(code);
    expect(await outbox.pending('asha@example.com')).toEqual([]);
  });

  it('a caller without an email cannot have a contact', async () => {
    const { update } = setup();
    const result = await update.execute({ caller: { userId: 'u-2', email: null }, email: 'x@example.com', attributes: {} });
    expect(!result.ok && result.error.code).toBe('MARKETING.EMAIL_REQUIRED');
  });
});

describe('TrackMarketingEvent (POST /api/brevo/track-event)', () => {
  it('queues the event for the caller’s contact, identified by email and user id', async () => {
    const { track, outbox, clock } = setup();
    expect((await track.execute({ caller, eventName: ' project_published ', identifiers: {}, properties: { plan: 'free', pages: 3 } })).ok).toBe(true);
    expect((await outbox.pending('asha@example.com')).map((p) => p.delivery)).toEqual([
      {
        kind: 'event',
        email: 'Asha@Example.com',
        event: { eventName: 'project_published', identifiers: { email_id: 'Asha@Example.com', ext_id: 'u-1' }, properties: { plan: 'free', pages: 3 }, occurredAt: clock.now() },
      },
    ]);
  });

  it.each([
    [{ eventName: '  ', identifiers: {} }, 'MARKETING.EVENT_NAME_REQUIRED'],
    [{ eventName: 'x', identifiers: { email_id: 'other@example.com' } }, 'MARKETING.NOT_YOUR_CONTACT'],
    [{ eventName: 'x', identifiers: { ext_id: 'u-2' } }, 'MARKETING.NOT_YOUR_CONTACT'],
    [{ eventName: 'plan viewed', identifiers: {} }, 'MARKETING.INVALID_EVENT'],
    [{ eventName: 'x', identifiers: {}, properties: { 'bad key': 1 } }, 'MARKETING.INVALID_EVENT'],
    [{ eventName: 'x', identifiers: {}, properties: { n: Number.NaN } }, 'MARKETING.INVALID_EVENT'],
    [{ eventName: 'x', identifiers: {}, properties: { nested: { a: 1 } as never } }, 'MARKETING.INVALID_EVENT'],
  ])('refuses %j with %s', async (input, code) => {
    const { track } = setup();
    const result = await track.execute({ caller, properties: {}, ...input });
    expect(!result.ok && result.error.code).toBe(code);
  });
});
