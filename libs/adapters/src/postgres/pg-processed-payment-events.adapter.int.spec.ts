import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { paymentEventStoresContract } from '@kiln/domain/contracts';
import { PgProcessedPaymentEvents, PgSubscriptionStateVersions } from './pg-processed-payment-events.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

describe('PgProcessedPaymentEvents and PgSubscriptionStateVersions', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let events: PgProcessedPaymentEvents;
  let versions: PgSubscriptionStateVersions;
  const at = new Date('2026-03-01T10:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });
    tx = new PgUnitOfWork(db.dataSource);
    events = new PgProcessedPaymentEvents(tx);
    versions = new PgSubscriptionStateVersions(tx);
    await db.dataSource.query(
      `INSERT INTO profiles (id, email, name, referral_code, created_at, updated_at) VALUES ('ana', 'ana@example.com', '', 'ABCDEF', now(), now())`,
    );
  });
  afterAll(async () => {
    await db.drop();
  });

  it('records an id once', async () => {
    expect(await events.record('evt_1', 'invoice.paid', at)).toBe(true);
    expect(await events.record('evt_1', 'invoice.paid', at)).toBe(false);
  });

  it('a record rolled back with its transaction is not kept', async () => {
    await expect(
      tx.run(async () => {
        expect(await events.record('evt_2', 'invoice.paid', at)).toBe(true);
        throw new Error('effect failed');
      }),
    ).rejects.toThrow('effect failed');
    expect(await events.record('evt_2', 'invoice.paid', at)).toBe(true);
  });

  it('two concurrent transactions recording one id: exactly one wins', async () => {
    const attempt = () => tx.run(async () => {
      const won = await events.record('evt_3', 'invoice.paid', at);
      await new Promise((r) => setTimeout(r, 50));
      return won;
    });
    const results = await Promise.all([attempt(), attempt(), attempt()]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lock serialises two transactions of one user; a locked user still advances', async () => {
    await db.dataSource.query(
      `INSERT INTO profiles (id, email, name, referral_code, created_at, updated_at) VALUES ('bob', 'bob@example.com', '', 'BCDEFG', now(), now())`,
    );
    const order: string[] = [];
    const first = tx.run(async () => {
      await versions.lock('bob');
      order.push('first locked');
      await new Promise((r) => setTimeout(r, 100));
      order.push('first done');
    });
    await new Promise((r) => setTimeout(r, 20));
    const second = tx.run(async () => {
      await versions.lock('bob');
      order.push('second locked');
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first locked', 'first done', 'second locked']);
    expect(await versions.advance('bob', at)).toBe(true);
  });

  it('advances the subscription state time only forwards (equal times apply)', async () => {
    expect(await versions.advance('ana', at)).toBe(true);
    expect(await versions.advance('ana', new Date(at.getTime() + 1000))).toBe(true);
    expect(await versions.advance('ana', at)).toBe(false);
    expect(await versions.advance('ana', new Date(at.getTime() + 1000))).toBe(true);
  });
});

paymentEventStoresContract('PostgreSQL', async () => {
  const db = await createTestDatabase();
  const tx = new PgUnitOfWork(db.dataSource);
  return {
    events: new PgProcessedPaymentEvents(tx),
    versions: new PgSubscriptionStateVersions(tx),
    newId: () => `evt_${randomUUID()}`,
    newUserId: async () => {
      const id = randomUUID();
      await db.dataSource.query(
        `INSERT INTO profiles (id, email, name, referral_code, created_at, updated_at) VALUES ($1, $2, '', $3, now(), now())`,
        [id, `${id}@example.com`, id.slice(0, 6).toUpperCase()],
      );
      return id;
    },
    close: () => db.drop(),
  };
});
