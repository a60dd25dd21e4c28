import { describe, expect, it } from '@jest/globals';
import { analyticsEventStoreContract } from '@kiln/domain/contracts';
import { PgAnalyticsEventStore } from './pg-analytics-event-store.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { freshTestDatabases } from './testing/fresh-test-databases.js';

const database = freshTestDatabases();

analyticsEventStoreContract('PgAnalyticsEventStore', async () => {
  const db = await database();
  return {
    // One database; each test starts from an empty table.
    fresh: async () => {
      await db.dataSource.query('TRUNCATE analytics_events');
      return new PgAnalyticsEventStore(new PgUnitOfWork(db.dataSource));
    },
  };
});

describe('PgAnalyticsEventStore', () => {
  it('keeps properties as JSON and the sender, and refuses an over-long name (the table checks it too)', async () => {
    const db = await database();
    const store = new PgAnalyticsEventStore(new PgUnitOfWork(db.dataSource));
    await store.record([{ name: 'purchase', kind: 'purchase', properties: { planId: 'pro_monthly', planPrice: 25 }, userId: 'u1', occurredAt: new Date('2026-11-24T08:00:00Z') }]);
    const rows: { properties: unknown; user_id: string }[] = await db.dataSource.query('SELECT properties, user_id FROM analytics_events');
    expect(rows).toEqual([{ properties: { planId: 'pro_monthly', planPrice: 25 }, user_id: 'u1' }]);
    await expect(store.record([{ name: 'x'.repeat(101), kind: 'custom', properties: {}, userId: null, occurredAt: new Date() }])).rejects.toThrow();
  });
});
