import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type EmailAddress, createAuthUser } from '@kiln/domain';
import { authUserRepositoryContract } from '@kiln/domain/contracts';
import { PgUnitOfWork } from '../pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from '../testing/test-database.js';
import { PgAuthUserRepository } from './pg-auth-user-repository.adapter.js';

authUserRepositoryContract('postgres', async () => {
  const db = await createTestDatabase();
  return { users: new PgAuthUserRepository(new PgUnitOfWork(db.dataSource)), newId: () => randomUUID(), close: () => db.drop() };
});

describe('PgAuthUserRepository on PostgreSQL', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let users: PgAuthUserRepository;
  const at = new Date(Date.UTC(2026, 0, 15, 10, 0, 0, 7));
  const newUser = (email = `pg-${randomUUID()}@example.com`) =>
    createAuthUser({ id: randomUUID(), identityId: randomUUID(), email: email as EmailAddress, passwordHash: 'hash$1', metadata: {} }, at);

  beforeAll(async () => {
    db = await createTestDatabase();
    tx = new PgUnitOfWork(db.dataSource);
    users = new PgAuthUserRepository(tx);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('keeps dates to the millisecond', async () => {
    const user = { ...newUser(), lastSignInAt: new Date(Date.UTC(2026, 1, 2, 3, 4, 5, 999)) };
    await users.insert(user);
    const stored = await users.findById(user.id);
    expect(stored?.createdAt.getTime()).toBe(at.getTime());
    expect(stored?.lastSignInAt?.toISOString()).toBe('2026-02-02T03:04:05.999Z');
  });

  it('treats addresses that differ only in case as one (the lower(email) index)', async () => {
    const user = newUser();
    await users.insert(user);
    expect(await users.insert(newUser(user.email.toUpperCase()))).toBe('email_taken');
    expect((await users.findByEmail(user.email.toUpperCase() as EmailAddress))?.id).toBe(user.id);
  });

  it('keeps the caller’s transaction usable after a refused address change inside it', async () => {
    const a = newUser();
    const b = newUser();
    await users.insert(a);
    await users.insert(b);
    const outcomes = await tx.run(async () => {
      const refused = await users.update(b.id, { email: a.email });
      const updated = await users.update(b.id, { phone: '+34600000000' });
      return [refused.outcome, updated.outcome];
    });
    expect(outcomes).toEqual(['email_taken', 'updated']);
    expect((await users.findById(b.id))?.phone).toBe('+34600000000');
  });

  it('joins the caller’s transaction: a rollback removes the insert', async () => {
    const user = newUser();
    await expect(
      tx.run(async () => {
        expect(await users.insert(user)).toBe('inserted');
        expect(await users.findByEmail(user.email)).not.toBeNull();
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await users.findById(user.id)).toBeNull();
  });

  it('answers an empty patch with the stored account', async () => {
    const user = newUser();
    await users.insert(user);
    expect(await users.update(user.id, {})).toEqual({ outcome: 'updated', user: await users.findById(user.id) });
    expect(await users.update(randomUUID(), {})).toEqual({ outcome: 'not_found' });
  });
});
