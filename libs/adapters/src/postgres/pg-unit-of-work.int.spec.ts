import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

describe('PgUnitOfWork', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  const subjects = async () =>
    ((await db.dataSource.query(`SELECT subject FROM mail_outbox WHERE "to" = 'uow@example.com' ORDER BY subject`)) as { subject: string }[]).map(
      (r) => r.subject,
    );
  const write = (subject: string) =>
    tx.manager().query(`INSERT INTO mail_outbox ("to", subject, text) VALUES ('uow@example.com', $1, '')`, [subject]);

  beforeAll(async () => {
    db = await createTestDatabase();
    tx = new PgUnitOfWork(db.dataSource);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('uses the DataSource’s manager outside a transaction', () => {
    expect(tx.inTransaction()).toBe(false);
    expect(tx.manager()).toBe(db.dataSource.manager);
  });

  it('commits the work of run, and rolls all of it back when it throws', async () => {
    await tx.run(async () => {
      await write('committed-1');
      await write('committed-2');
    });
    await expect(
      tx.run(async () => {
        await write('rolled-back');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await subjects()).toEqual(['committed-1', 'committed-2']);
  });

  it('joins the outer transaction in a nested run', async () => {
    await expect(
      tx.run(async () => {
        const outer = tx.manager();
        await write('nested-outer');
        await tx.run(async () => {
          expect(tx.manager()).toBe(outer);
          await write('nested-inner');
        });
        throw new Error('outer fails after the inner run');
      }),
    ).rejects.toThrow('outer fails');
    expect(await subjects()).not.toContain('nested-inner');
  });

  it('undoes only the failed atomically block inside a transaction (savepoint)', async () => {
    await tx.run(async () => {
      await write('kept');
      await expect(
        tx.atomically(async () => {
          await write('undone');
          await tx.manager().query('SELECT 1/0'); // an SQL error: without a savepoint the transaction would be dead
        }),
      ).rejects.toThrow('division by zero');
      await write('after');
    });
    expect(await subjects()).toEqual(expect.arrayContaining(['kept', 'after']));
    expect(await subjects()).not.toContain('undone');
  });

  it('keeps concurrent transactions apart', async () => {
    const results = await Promise.allSettled([
      tx.run(async () => {
        await write('parallel-ok');
        await new Promise((r) => setTimeout(r, 20));
      }),
      tx.run(async () => {
        await write('parallel-failed');
        await new Promise((r) => setTimeout(r, 10));
        throw new Error('one fails');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(await subjects()).toContain('parallel-ok');
    expect(await subjects()).not.toContain('parallel-failed');
  });
});
