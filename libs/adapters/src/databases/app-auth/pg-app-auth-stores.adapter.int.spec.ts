import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type EmailAddress, createAuthUser, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { authUserRepositoryContract, oneTimeCodeStoreContract, sessionStoreContract } from '@kiln/domain/contracts';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from '../../postgres/testing/test-database.js';
import { LocalPostgresProvisioner } from '../local-postgres-provisioner.adapter.js';
import { PgAppAuthStores, type ProjectAuthStores } from './pg-app-auth-stores.adapter.js';

jest.setTimeout(60_000);

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const random = new SeededRandom(Date.now() % 1_000_000_007);
const limits = { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 };

/** A provisioned project database and its app-user stores; `close` drops it. */
async function projectStores(): Promise<{ ref: string; stores: ProjectAuthStores; all: PgAppAuthStores; provisioner: LocalPostgresProvisioner; close(): Promise<void> }> {
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const ref = generateDatabaseRef(random);
  await provisioner.provision(ref, limits);
  const all = new PgAppAuthStores({ adminUrl });
  const stores = await all.forRef(ref);
  return {
    ref,
    stores,
    all,
    provisioner,
    close: async () => {
      await all.close();
      await provisioner.drop(ref);
      await provisioner.close();
    },
  };
}

const newAccount = (stores: ProjectAuthStores) => async (): Promise<string> => {
  const id = randomUUID();
  await stores.users.insert(createAuthUser({ id, identityId: randomUUID(), email: `u-${id}@example.com` as EmailAddress, passwordHash: null, metadata: {} }, new Date()));
  return id;
};

authUserRepositoryContract('app users in a project database', async () => {
  const p = await projectStores();
  return { users: p.stores.users, newId: () => randomUUID(), close: p.close };
});

sessionStoreContract('app users in a project database', async () => {
  const p = await projectStores();
  return { sessions: p.stores.sessions, newId: () => randomUUID(), newUserId: newAccount(p.stores), close: p.close };
});

oneTimeCodeStoreContract('app users in a project database', async () => {
  const p = await projectStores();
  return { codes: p.stores.codes, newId: () => randomUUID(), newUserId: newAccount(p.stores), close: p.close };
});

describe('PgAppAuthStores: isolation (real PostgreSQL)', () => {
  let x: Awaited<ReturnType<typeof projectStores>>;
  let refY: string;
  beforeAll(async () => {
    x = await projectStores();
    refY = generateDatabaseRef(random);
    await x.provisioner.provision(refY, limits);
  });
  afterAll(async () => {
    await x.all.release(refY);
    await x.provisioner.drop(refY);
    await x.close();
  });

  it('keeps each project’s users in its own database: the same address lives separately in X and Y', async () => {
    const email = `same-${randomUUID()}@example.com` as EmailAddress;
    const inX = createAuthUser({ id: randomUUID(), identityId: randomUUID(), email, passwordHash: 'h', metadata: {} }, new Date());
    expect(await x.stores.users.insert(inX)).toBe('inserted');
    const y = await x.all.forRef(refY);
    expect(await y.users.findByEmail(email)).toBeNull();
    expect(await y.users.findById(inX.id)).toBeNull();
    const inY = createAuthUser({ id: randomUUID(), identityId: randomUUID(), email, passwordHash: 'h', metadata: {} }, new Date());
    expect(await y.users.insert(inY)).toBe('inserted');
    expect((await x.stores.users.findByEmail(email))?.id).toBe(inX.id);
  });

  it('gives the data API’s roles and the owner role nothing on the auth tables (only auth.uid())', async () => {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseNames(x.ref).database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      for (const role of ['anon', 'authenticated', databaseNames(x.ref).owner, databaseNames(x.ref).authenticator]) {
        const { rows } = await client.query<{ readable: boolean; uid: boolean }>(
          `SELECT has_table_privilege($1, 'auth.auth_users', 'SELECT') OR has_table_privilege($1, 'auth.auth_refresh_tokens', 'SELECT')
                  OR has_table_privilege($1, 'auth.auth_sessions', 'SELECT') OR has_table_privilege($1, 'auth.auth_one_time_codes', 'SELECT') AS readable,
                  has_function_privilege($1, 'auth.uid()', 'EXECUTE') AS uid`,
          [role],
        );
        expect({ role, readable: rows[0]!.readable }).toEqual({ role, readable: false });
        if (role !== databaseNames(x.ref).authenticator) expect(rows[0]!.uid).toBe(true);
      }
    } finally {
      await client.end();
    }
  });
});
