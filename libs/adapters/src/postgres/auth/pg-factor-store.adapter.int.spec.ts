import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { type EmailAddress, createAuthUser } from '@kiln/domain';
import { factorStoreContract } from '@kiln/domain/contracts';
import { SecretBox } from '../../databases/secret-box.js';
import { PgUnitOfWork } from '../pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from '../testing/test-database.js';
import { PgAuthUserRepository } from './pg-auth-user-repository.adapter.js';
import { PgFactorStore } from './pg-factor-store.adapter.js';

jest.setTimeout(60_000);

/** An account for factors to point at (auth_mfa_factors.user_id references auth_users). */
function accounts(tx: PgUnitOfWork) {
  const users = new PgAuthUserRepository(tx);
  return async (): Promise<string> => {
    const id = randomUUID();
    const email = `owner-${id}@example.com` as EmailAddress;
    await users.insert(createAuthUser({ id, identityId: randomUUID(), email, passwordHash: null, metadata: {} }, new Date(Date.UTC(2026, 0, 1))));
    return id;
  };
}

factorStoreContract('postgres', async () => {
  const db = await createTestDatabase();
  const tx = new PgUnitOfWork(db.dataSource);
  return { factors: new PgFactorStore(tx, new SecretBox(randomBytes(32))), newId: () => randomUUID(), newUserId: accounts(tx), close: () => db.drop() };
});

let db: TestDatabase;
let tx: PgUnitOfWork;
beforeAll(async () => {
  db = await createTestDatabase();
  tx = new PgUnitOfWork(db.dataSource);
});
afterAll(async () => {
  await db.drop();
});

it('keeps the TOTP secret sealed at rest; another key, or the ciphertext moved to another factor, cannot open it', async () => {
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
  const store = new PgFactorStore(tx, new SecretBox(randomBytes(32)));
  const userId = await accounts(tx)();
  const base = { userId, friendlyName: '', factorType: 'totp' as const, status: 'unverified' as const, secret, lastUsedStep: null, createdAt: new Date(), updatedAt: new Date() };
  const [one, two] = [randomUUID(), randomUUID()];
  await store.insert({ ...base, id: one });
  await store.insert({ ...base, id: two, secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' });

  const raw = await db.dataSource.query('SELECT * FROM auth_mfa_factors WHERE id = $1', [one]);
  expect(JSON.stringify(raw)).not.toContain(secret);
  expect(raw[0].secret_sealed).toMatch(/^v1:/);
  expect((await store.findById(one))?.secret).toBe(secret);

  await expect(new PgFactorStore(tx, new SecretBox(randomBytes(32))).findById(one)).rejects.toThrow();
  await db.dataSource.query('UPDATE auth_mfa_factors SET secret_sealed = (SELECT secret_sealed FROM auth_mfa_factors WHERE id = $1) WHERE id = $2', [one, two]);
  await expect(store.findById(two)).rejects.toThrow();
});
