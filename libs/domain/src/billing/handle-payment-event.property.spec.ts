import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { SubscriptionSnapshot } from './payment-gateway.port.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { addOnCheckout, invoicePaid, snapshot, subscriptionEvent } from '../testing/payment-event-builders.js';
import type { PaymentEvent } from './payment-event.js';

/**
 * Model: a user's subscription history is a sequence of states at strictly increasing provider
 * times, plus invoices and add-on payments. Whatever order the events arrive in, and however often
 * each is delivered, the profile ends in the newest state, every add-on payment counts once and
 * add-on credits survive a cancellation.
 */

const T0 = Date.UTC(2026, 2, 1, 10);
const HOUR = 3_600_000;

type State = { kind: 'active' | 'past_due' | 'canceled' | 'deleted'; planId: 'pro_monthly' | 'pro_annual'; month: number; cancelAtPeriodEnd: boolean };
const state: fc.Arbitrary<State> = fc.record({
  kind: fc.constantFrom('active' as const, 'active' as const, 'past_due' as const, 'canceled' as const, 'deleted' as const),
  planId: fc.constantFrom('pro_monthly' as const, 'pro_annual' as const),
  month: fc.integer({ min: 0, max: 3 }),
  cancelAtPeriodEnd: fc.boolean(),
});

function toEvents(states: State[], invoices: number[], addOns: number[]): PaymentEvent[] {
  const events: PaymentEvent[] = [];
  states.forEach((s, i) => {
    const at = new Date(T0 + (i + 1) * HOUR);
    const sub: SubscriptionSnapshot = snapshot({
      currentPeriodStart: new Date(Date.UTC(2026, 2 + s.month, 1, 10)),
      planId: s.planId,
      interval: s.planId === 'pro_annual' ? 'annual' : 'monthly',
      status: s.kind === 'deleted' ? 'canceled' : s.kind,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    });
    const type = s.kind === 'deleted' ? 'subscription.deleted' : i === 0 ? 'subscription.created' : 'subscription.updated';
    events.push(subscriptionEvent(`evt_s${i}`, type, 'ana', at, sub));
  });
  invoices.forEach((month, i) => events.push(invoicePaid(`evt_i${i}`, 'ana', `in_${month}`, new Date(Date.UTC(2026, 2 + month, 1, 10)))));
  addOns.forEach((p, i) => events.push(addOnCheckout(`evt_a${i}`, 'ana', `pi_${p}`, new Date(T0 + i * 1000))));
  return events;
}

describe('HandlePaymentEvent — replays, duplicates and reordering (model)', () => {
  it('ends in the newest subscription state with each add-on payment granted once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(state, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 4 }),
        fc.func(fc.integer()),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (states, invoices, addOns, order, duplicates) => {
          const kit = createTestKit();
          kit.clock.set(new Date(T0));
          await signUp(kit, 'ana');
          const events = toEvents(states, invoices, addOns);
          const delivered = [...events, ...duplicates.map((d) => events[d % events.length]!)];
          const shuffled = delivered.map((e, i) => ({ e, k: order(i) })).sort((a, b) => a.k - b.k).map((x) => x.e);
          for (const e of shuffled) {
            const r = await kit.handlePaymentEvent.execute(e);
            expect(r.ok).toBe(true);
          }

          const last = states[states.length - 1]!;
          const profile = await kit.profiles.findById('ana');
          if (last.kind === 'canceled' || last.kind === 'deleted') {
            expect(profile).toMatchObject({ subscriptionPlan: 'free', subscriptionId: null, subscriptionStatus: 'canceled' });
          } else {
            expect(profile).toMatchObject({ subscriptionPlan: last.planId, subscriptionId: 'sub_1', subscriptionStatus: last.kind });
          }
          const summary = await kit.ledger.summary('ana');
          expect(summary.balances.addon).toBe(500 * new Set(addOns).size);
          expect(summary.balances.referral).toBe(0);
          expect(kit.processedPaymentEvents.ids.size).toBe(events.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
