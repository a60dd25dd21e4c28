import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { marketingAudienceContract, marketingOutboxContract } from '@kiln/domain/contracts';
import { PgMarketingAudience } from './pg-marketing-audience.adapter.js';
import { PgMarketingOutbox } from './pg-marketing-outbox.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

marketingAudienceContract('PgMarketingAudience (the local default)', async () => {
  const db = await createTestDatabase({ poolSize: 3 });
  const audience = new PgMarketingAudience(new PgUnitOfWork(db.dataSource));
  return {
    audience,
    contact: async (email) => (await audience.contact(email))?.attributes ?? null,
    events: async (email) => (await audience.events(email)).map((e) => ({ name: e.eventName, properties: e.properties })),
    // The tables gone: every statement fails as with a database that cannot answer.
    breakIt: async () => {
      await db.dataSource.query('ALTER TABLE marketing_contacts RENAME TO marketing_contacts_away');
      await db.dataSource.query('ALTER TABLE marketing_events RENAME TO marketing_events_away');
    },
    repair: async () => {
      await db.dataSource.query('ALTER TABLE marketing_contacts_away RENAME TO marketing_contacts');
      await db.dataSource.query('ALTER TABLE marketing_events_away RENAME TO marketing_events');
    },
    close: () => db.drop(),
  };
});

marketingOutboxContract('PgMarketingOutbox', async () => {
  const db = await createTestDatabase({ poolSize: 3 });
  return {
    outbox: async () => {
      await db.dataSource.query('TRUNCATE marketing_outbox');
      return new PgMarketingOutbox(new PgUnitOfWork(db.dataSource));
    },
    close: () => db.drop(),
  };
});

describe('PgMarketingOutbox in transactions', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let outbox: PgMarketingOutbox;
  const at = new Date('2026-03-01T10:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });
    tx = new PgUnitOfWork(db.dataSource);
    outbox = new PgMarketingOutbox(tx);
  });
  afterAll(() => db.drop());

  it("a delivery queued in a transaction that rolls back is not kept (it commits with the caller's change)", async () => {
    await expect(
      tx.run(async () => {
        await outbox.enqueue({ kind: 'remove', email: 'rolled@example.com' }, at);
        throw new Error('the plan change failed');
      }),
    ).rejects.toThrow('the plan change failed');
    expect(await outbox.pending('rolled@example.com')).toEqual([]);
  });

  it('two workers claiming at once never get the same delivery', async () => {
    for (let i = 0; i < 20; i += 1) await outbox.enqueue({ kind: 'remove', email: `w${i}@example.com` }, at);
    const claim = () => tx.run(() => outbox.claimDue(at, 20, new Date(at.getTime() + 60_000)));
    const [a, b] = await Promise.all([claim(), claim()]);
    const ids = [...a, ...b].map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(20);
  });
});
