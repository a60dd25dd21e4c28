import { describe, expect, it } from '@jest/globals';
import type { Invoice } from './invoice.js';
import { snapshot, subscriptionEvent } from '../testing/payment-event-builders.js';
import { createTestKit, signUp } from '../testing/test-kit.js';

const T0 = new Date('2026-03-01T10:00:00Z');
const invoice = (id: string, day: number, over: Partial<Invoice> = {}): Invoice => ({
  id,
  number: `KILN-${id}`,
  status: 'paid',
  amountMinor: 2500,
  currency: 'USD',
  description: 'Pro Monthly',
  createdAt: new Date(Date.UTC(2026, 2, day)),
  url: `https://pay.test/invoice/${id}`,
  ...over,
});

async function paying() {
  const kit = createTestKit();
  kit.clock.set(T0);
  await signUp(kit, 'ana');
  const sub = snapshot({ currentPeriodStart: T0, customerId: 'cus_ana' });
  expect((await kit.handlePaymentEvent.execute(subscriptionEvent('evt_1', 'subscription.created', 'ana', T0, sub))).ok).toBe(true);
  return kit;
}

describe('ListInvoices (billing history)', () => {
  it("answers the customer's invoices from the provider, newest first", async () => {
    const kit = await paying();
    kit.payments.invoices.set('cus_ana', [invoice('in_1', 1), invoice('in_3', 20, { description: '500 add-on credits', amountMinor: 999 }), invoice('in_2', 10)]);
    kit.payments.invoices.set('cus_other', [invoice('in_x', 5)]);

    const result = await kit.listInvoices.execute({ userId: 'ana' });

    expect(result.ok && result.value.map((i) => i.id)).toEqual(['in_3', 'in_2', 'in_1']);
    expect(kit.payments.calls.filter((c) => c.method === 'listInvoices').map((c) => c.request)).toEqual(['cus_ana']);
  });

  it('is empty, without asking the provider, before the person has a customer', async () => {
    const kit = createTestKit();
    await signUp(kit, 'bo');
    expect(await kit.listInvoices.execute({ userId: 'bo' })).toEqual({ ok: true, value: [] });
    expect(kit.payments.calls).toEqual([]);
  });

  it('a provider that cannot be reached is BILLING.PROVIDER_UNAVAILABLE; an unknown profile PROFILES.NOT_FOUND', async () => {
    const kit = await paying();
    kit.payments.down = true;
    expect(await kit.listInvoices.execute({ userId: 'ana' })).toMatchObject({ ok: false, error: { code: 'BILLING.PROVIDER_UNAVAILABLE' } });
    expect(await kit.listInvoices.execute({ userId: 'nobody' })).toMatchObject({ ok: false, error: { code: 'PROFILES.NOT_FOUND' } });
  });
});
