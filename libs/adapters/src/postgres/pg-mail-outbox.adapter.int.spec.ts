import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mailerContract } from '@kiln/domain/contracts';
import { PgMailOutbox } from './pg-mail-outbox.adapter.js';
import { PgUnitOfWork } from './pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from './testing/test-database.js';

mailerContract('postgres outbox', async () => {
  const db = await createTestDatabase();
  const outbox = new PgMailOutbox(new PgUnitOfWork(db.dataSource), () => undefined);
  return {
    mailer: outbox,
    inbox: async (email) => (await outbox.list(email)).map(({ to, subject, text, html }) => ({ to, subject, text, html })),
    close: () => db.drop(),
  };
});

describe('PgMailOutbox', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let outbox: PgMailOutbox;
  const lines: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    tx = new PgUnitOfWork(db.dataSource);
    outbox = new PgMailOutbox(tx, (line) => lines.push(line));
  });
  afterAll(async () => {
    await db.drop();
  });

  it('logs one line per mail, without the body (it may hold a code)', async () => {
    lines.length = 0;
    await outbox.send({ to: 'log@example.com', subject: 'Your code', text: 'secret 424242' });
    expect(lines).toEqual(['[mail-outbox] to=log@example.com subject="Your code"']);
  });

  it('lists by address case-insensitively, with the time each mail was stored', async () => {
    const before = Date.now();
    await outbox.send({ to: 'Mixed.Case@Example.com', subject: 'hi', text: 'hi' });
    const [mail] = await outbox.list('mixed.case@example.com');
    expect(mail).toEqual({ to: 'Mixed.Case@Example.com', subject: 'hi', text: 'hi', html: null, created_at: expect.any(Date) });
    expect(Math.abs(mail!.created_at.getTime() - before)).toBeLessThan(60_000);
  });

  it('stores nothing when the caller’s transaction rolls back', async () => {
    await expect(
      tx.run(async () => {
        await outbox.send({ to: 'rollback@example.com', subject: 'never', text: 'never' });
        throw new Error('sign-up failed');
      }),
    ).rejects.toThrow('sign-up failed');
    expect(await outbox.list('rollback@example.com')).toEqual([]);
  });
});
