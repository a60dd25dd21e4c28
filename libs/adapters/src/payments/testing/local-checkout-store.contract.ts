// One suite for every LocalCheckoutStore (in memory, PostgreSQL): what the local test checkout
// relies on, including the races a double-clicked "Pay" button makes.
import { describe, expect, it } from '@jest/globals';
import type { PaymentEvent } from '@kiln/domain';
import type { LocalCheckoutSession, LocalCheckoutStore, LocalSubscription } from '../local-checkout-store.js';

const at = new Date('2026-11-24T10:00:00.000Z');
const session = (id: string, kind: LocalCheckoutSession['kind'] = 'subscription'): LocalCheckoutSession => ({
  id,
  kind,
  userId: 'user-1',
  email: 'ana@example.com',
  planId: kind === 'subscription' ? 'pro_monthly' : null,
  currency: 'INR',
  customerId: 'cus_local_user-1',
  completed: null,
  canceled: false,
});
const subscription = (id: string, extra: Partial<LocalSubscription> = {}): LocalSubscription => ({
  id,
  userId: 'user-1',
  customerId: 'cus_local_user-1',
  planId: 'pro_monthly',
  status: 'active',
  interval: 'monthly',
  currentPeriodStart: at,
  currentPeriodEnd: new Date('2026-12-24T10:00:00.000Z'),
  cancelAtPeriodEnd: false,
  ...extra,
});
const paidEvents = (sub: string, tag: string): PaymentEvent[] => [
  { id: `evt_${tag}_1`, occurredAt: at, type: 'checkout.completed', userId: 'user-1', customerId: 'cus_local_user-1', mode: 'subscription', subscriptionId: sub },
  { id: `evt_${tag}_2`, occurredAt: at, type: 'invoice.paid', invoiceId: `in_${tag}`, userId: 'user-1', subscriptionId: sub, period: { start: at, end: new Date('2026-12-24T10:00:00.000Z') } },
];

export function localCheckoutStoreContract(name: string, makeStore: () => Promise<LocalCheckoutStore>): void {
  describe(`${name} (LocalCheckoutStore contract)`, () => {
    it('keeps one session per idempotency key (the first one), and finds it by id', async () => {
      const store = await makeStore();
      expect(await store.openSession('key-1', session('cs_1'))).toEqual(session('cs_1'));
      expect(await store.openSession('key-1', session('cs_2'))).toEqual(session('cs_1'));
      expect(await store.session('cs_1')).toEqual(session('cs_1'));
      expect(await store.session('cs_2')).toBeNull();
    });

    it('pays a session once: its events (dates as dates) and its subscription, together; paying again answers the first payment', async () => {
      const store = await makeStore();
      await store.openSession('key-1', session('cs_1'));
      const paid = await store.completeSession('cs_1', paidEvents('sub_1', 'a'), subscription('sub_1'));
      expect(paid?.completed).toEqual(paidEvents('sub_1', 'a'));
      expect(paid?.completed?.[0]?.occurredAt).toBeInstanceOf(Date);
      expect(await store.subscription('sub_1')).toEqual(subscription('sub_1'));
      const again = await store.completeSession('cs_1', paidEvents('sub_2', 'b'), subscription('sub_2'));
      expect(again?.completed).toEqual(paidEvents('sub_1', 'a'));
      expect(await store.subscription('sub_2')).toBeNull();
      expect(await store.completeSession('cs_missing', [], null)).toBeNull();
    });

    it('two payments of one session at the same time: one wins, both see its events, one subscription', async () => {
      const store = await makeStore();
      await store.openSession('key-1', session('cs_1'));
      const [a, b] = await Promise.all([
        store.completeSession('cs_1', paidEvents('sub_a', 'a'), subscription('sub_a')),
        store.completeSession('cs_1', paidEvents('sub_b', 'b'), subscription('sub_b')),
      ]);
      expect(a?.completed).toEqual(b?.completed);
      expect((await store.subscriptionsOfUser('user-1')).map((s) => s.id)).toHaveLength(1);
    });

    it('abandons an unpaid session (it can no longer be paid), never a paid one', async () => {
      const store = await makeStore();
      await store.openSession('key-1', session('cs_1'));
      expect(await store.cancelSession('cs_1')).toMatchObject({ canceled: true, completed: null });
      expect(await store.completeSession('cs_1', paidEvents('sub_1', 'a'), subscription('sub_1'))).toMatchObject({ canceled: true, completed: null });
      expect(await store.subscription('sub_1')).toBeNull();
      await store.openSession('key-2', session('cs_2', 'add_on'));
      await store.completeSession('cs_2', [], null);
      expect(await store.cancelSession('cs_2')).toMatchObject({ canceled: false, completed: [] });
      expect(await store.cancelSession('cs_missing')).toBeNull();
    });

    it("lists a customer's paid sessions only (not open, abandoned or another customer's)", async () => {
      const store = await makeStore();
      const mine = (id: string, kind: LocalCheckoutSession['kind'] = 'subscription') => ({ ...session(id, kind), customerId: 'cus_invoices' });
      await store.openSession('inv-1', mine('cs_inv_1'));
      await store.completeSession('cs_inv_1', paidEvents('sub_inv', 'inv1'), null);
      await store.openSession('inv-2', mine('cs_inv_2', 'add_on'));
      await store.completeSession('cs_inv_2', [], null);
      await store.openSession('inv-3', mine('cs_inv_open'));
      await store.openSession('inv-4', mine('cs_inv_gone'));
      await store.cancelSession('cs_inv_gone');
      await store.openSession('inv-5', { ...session('cs_inv_other'), customerId: 'cus_other_invoices' });
      await store.completeSession('cs_inv_other', [], null);
      expect((await store.paidSessionsOfCustomer('cus_invoices')).map((s) => s.id).sort()).toEqual(['cs_inv_1', 'cs_inv_2']);
      expect((await store.paidSessionsOfCustomer('cus_invoices')).find((s) => s.id === 'cs_inv_1')?.completed?.[0]?.occurredAt).toBeInstanceOf(Date);
      expect(await store.paidSessionsOfCustomer('cus_nobody')).toEqual([]);
    });

    it('saves subscription changes and lists them by user and by customer', async () => {
      const store = await makeStore();
      await store.saveSubscription(subscription('sub_1'));
      await store.saveSubscription(subscription('sub_1', { cancelAtPeriodEnd: true }));
      await store.saveSubscription(subscription('sub_2', { userId: 'user-2', customerId: 'cus_2' }));
      expect(await store.subscription('sub_1')).toEqual(subscription('sub_1', { cancelAtPeriodEnd: true }));
      expect((await store.subscriptionsOfUser('user-1')).map((s) => s.id)).toEqual(['sub_1']);
      expect((await store.subscriptionsOfCustomer('cus_2')).map((s) => s.id)).toEqual(['sub_2']);
      expect(await store.subscriptionsOfCustomer('cus_none')).toEqual([]);
    });
  });
}
