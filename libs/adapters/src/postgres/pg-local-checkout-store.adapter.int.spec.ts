import { describe, expect, it } from '@jest/globals';
import { FixedClock, SequentialIds } from '@kiln/domain/testing';
import { LocalPaymentGateway } from '../payments/local-payment-gateway.adapter.js';
import { localCheckoutStoreContract } from '../payments/testing/local-checkout-store.contract.js';
import { PgLocalCheckoutStore } from './pg-local-checkout-store.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { freshTestDatabases } from './testing/fresh-test-databases.js';

const database = freshTestDatabases();

localCheckoutStoreContract('PgLocalCheckoutStore', async () => new PgLocalCheckoutStore(new PgUnitOfWork((await database()).dataSource)));

describe('LocalPaymentGateway on PostgreSQL', () => {
  it('a test subscription survives a restart: a new gateway on the same database can still cancel and end it', async () => {
    const db = await database();
    const config = { apiUrl: 'http://api.test', appUrl: 'http://app.test' };
    const clock = new FixedClock('2026-11-24T10:00:00.000Z');
    const before = new LocalPaymentGateway(config, clock, new SequentialIds('before'), new PgLocalCheckoutStore(new PgUnitOfWork(db.dataSource)));
    const url = await before.createCheckoutSession({ planId: 'pro_monthly', currency: 'USD', customer: { userId: 'ana', email: 'ana@example.com', customerId: null }, idempotencyKey: 'k1', multiplier: 1 });
    const paid = await before.complete(url.split('/').pop() ?? '');
    const created = paid?.events.find((e) => e.type === 'subscription.created');
    const subscriptionId = created?.type === 'subscription.created' ? created.subscription.id : '';
    expect(subscriptionId).toMatch(/^sub_local_/);

    // "Restart": nothing shared but the database.
    const after = new LocalPaymentGateway(config, clock, new SequentialIds('after'), new PgLocalCheckoutStore(new PgUnitOfWork(db.dataSource)));
    expect(await after.ownerOf(subscriptionId)).toBe('ana');
    expect((await after.complete(url.split('/').pop() ?? ''))?.events).toEqual(paid?.events);
    expect(await after.cancelSubscription({ subscriptionId, idempotencyKey: 'c1' })).toMatchObject({ id: subscriptionId, cancelAtPeriodEnd: true });
    clock.advance(1000);
    expect((await after.endPeriod(subscriptionId)).map((e) => e.type)).toEqual(['subscription.deleted']);
    expect(await after.subscriptionsOfCustomer('cus_local_ana')).toEqual([]);
  });
});
