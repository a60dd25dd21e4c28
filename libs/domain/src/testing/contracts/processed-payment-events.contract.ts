import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ProcessedPaymentEvents, SubscriptionStateVersions } from '../../billing/processed-payment-events.port.js';

export interface PaymentEventStoresHarness {
  readonly events: ProcessedPaymentEvents;
  readonly versions: SubscriptionStateVersions;
  /** A fresh event id. */
  newId(): string;
  /** The id of an existing user (adapters with a foreign key to profiles create one). */
  newUserId(): Promise<string>;
  close?(): Promise<void>;
}

const T0 = Date.UTC(2026, 2, 1, 10);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/** The ProcessedPaymentEvents and SubscriptionStateVersions contract. Call it from each adapter's spec. */
export function paymentEventStoresContract(name: string, makeHarness: () => Promise<PaymentEventStoresHarness>): void {
  describe(`ProcessedPaymentEvents / SubscriptionStateVersions contract: ${name}`, () => {
    let h: PaymentEventStoresHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('records an event id once; other ids are independent', async () => {
      const a = h.newId();
      const b = h.newId();
      expect(await h.events.record(a, 'invoice.paid', at(0))).toBe(true);
      expect(await h.events.record(a, 'invoice.paid', at(0))).toBe(false);
      expect(await h.events.record(b, 'invoice.paid', at(0))).toBe(true);
    });

    it('the first state of a user applies; later and equal times apply; older ones do not', async () => {
      const user = await h.newUserId();
      expect(await h.versions.advance(user, at(10))).toBe(true);
      expect(await h.versions.advance(user, at(10))).toBe(true);
      expect(await h.versions.advance(user, at(9))).toBe(false);
      expect(await h.versions.advance(user, at(11))).toBe(true);
      expect(await h.versions.advance(user, at(10))).toBe(false);
    });

    it('taking the lock never stops a first state from applying', async () => {
      const user = await h.newUserId();
      await h.versions.lock(user);
      expect(await h.versions.advance(user, at(0))).toBe(true);
    });

    it('users are independent', async () => {
      const ana = await h.newUserId();
      const bob = await h.newUserId();
      expect(await h.versions.advance(ana, at(100))).toBe(true);
      expect(await h.versions.advance(bob, at(1))).toBe(true);
    });
  });
}
