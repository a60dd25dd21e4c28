import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MarketingDelivery, MarketingOutbox } from '../../marketing/marketing-outbox.port.js';

export interface MarketingOutboxHarness {
  /** A fresh, empty outbox for each test. */
  outbox(): Promise<MarketingOutbox>;
  close?(): Promise<void>;
}

const T0 = Date.UTC(2026, 2, 1, 10);
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const contact = (email: string, plan: string): MarketingDelivery => ({ kind: 'contact', email, attributes: { PLAN: plan, PROJECT_COUNT: 2 } });

/** The MarketingOutbox contract. Call it from each adapter's spec. */
export function marketingOutboxContract(name: string, makeHarness: () => Promise<MarketingOutboxHarness>): void {
  describe(`MarketingOutbox contract: ${name}`, () => {
    let h: MarketingOutboxHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('gives back what was queued, untried, once it is due', async () => {
      const outbox = await h.outbox();
      const event: MarketingDelivery = {
        kind: 'event',
        email: 'bo@example.com',
        event: { eventName: 'signed_up', identifiers: { email_id: 'bo@example.com', ext_id: 'u-2' }, properties: { source: 'ad', paid: false, n: 1 }, occurredAt: at(1) },
      };
      await outbox.enqueue(contact('ana@example.com', 'free'), at(0));
      await outbox.enqueue(event, at(1));
      await outbox.enqueue({ kind: 'remove', email: 'cy@example.com' }, at(5));
      expect(await outbox.claimDue(at(0), 10, at(100))).toEqual([{ id: expect.any(String), delivery: contact('ana@example.com', 'free'), attempts: 0 }]);
      expect(await outbox.claimDue(at(5), 10, at(100))).toEqual([
        { id: expect.any(String), delivery: event, attempts: 0 },
        { id: expect.any(String), delivery: { kind: 'remove', email: 'cy@example.com' }, attempts: 0 },
      ]);
    });

    it('hands out only the oldest undelivered delivery of each contact (emails in any case), so order per contact is kept', async () => {
      const outbox = await h.outbox();
      await outbox.enqueue(contact('ana@example.com', 'free'), at(0));
      await outbox.enqueue(contact('ANA@example.com', 'pro_monthly'), at(1));
      await outbox.enqueue(contact('bo@example.com', 'free'), at(2));
      const first = await outbox.claimDue(at(10), 10, at(10));
      expect(first.map((p) => p.delivery)).toEqual([contact('ana@example.com', 'free'), contact('bo@example.com', 'free')]);
      await outbox.markDelivered(first[0]!.id, at(10));
      const second = await outbox.claimDue(at(10), 10, at(20));
      expect(second.map((p) => p.delivery)).toEqual([contact('ANA@example.com', 'pro_monthly'), contact('bo@example.com', 'free')]);
    });

    it('a claimed delivery is leased: not handed out again before the lease ends, then again', async () => {
      const outbox = await h.outbox();
      await outbox.enqueue(contact('ana@example.com', 'free'), at(0));
      expect(await outbox.claimDue(at(0), 10, at(120))).toHaveLength(1);
      expect(await outbox.claimDue(at(119), 10, at(300))).toEqual([]);
      expect(await outbox.claimDue(at(120), 10, at(300))).toHaveLength(1);
    });

    it('a failed attempt counts and waits until its retry time; a delivered one never comes back', async () => {
      const outbox = await h.outbox();
      await outbox.enqueue(contact('ana@example.com', 'free'), at(0));
      const [pending] = await outbox.claimDue(at(0), 10, at(1));
      await outbox.markFailed(pending!.id, at(60), 'Brevo unreachable');
      expect(await outbox.claimDue(at(59), 10, at(200))).toEqual([]);
      const [again] = await outbox.claimDue(at(60), 10, at(200));
      expect(again).toEqual({ id: pending!.id, delivery: contact('ana@example.com', 'free'), attempts: 1 });
      await outbox.markFailed(again!.id, at(90), 'still down');
      expect((await outbox.pending('Ana@Example.com')).map((p) => p.attempts)).toEqual([2]);
      const [third] = await outbox.claimDue(at(90), 10, at(200));
      await outbox.markDelivered(third!.id, at(91));
      await outbox.markFailed(third!.id, at(92), 'late report');
      expect(await outbox.claimDue(at(10_000), 10, at(20_000))).toEqual([]);
      expect(await outbox.pending('ana@example.com')).toEqual([]);
    });

    it('takes at most `limit`, oldest first', async () => {
      const outbox = await h.outbox();
      for (let i = 0; i < 5; i += 1) await outbox.enqueue(contact(`p${i}@example.com`, 'free'), at(i));
      expect((await outbox.claimDue(at(10), 3, at(20))).map((p) => p.delivery.email)).toEqual(['p0@example.com', 'p1@example.com', 'p2@example.com']);
      expect((await outbox.claimDue(at(10), 3, at(20))).map((p) => p.delivery.email)).toEqual(['p3@example.com', 'p4@example.com']);
    });
  });
}
