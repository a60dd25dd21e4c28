import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type EmailAddress, createAuthUser, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { authUserRepositoryContract, sessionStoreContract } from '@kiln/domain/contracts';
import { SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { DEFAULT_TEST_DATABASE_URL } from '../../postgres/testing/test-database.js';
import { NeonProvisioner } from '../neon-provisioner.adapter.js';
import { FakeNeonServer } from '../testing/fake-neon-server.js';
import { PgAppAuthStores, type ProjectAuthStores } from './pg-app-auth-stores.adapter.js';

jest.setTimeout(60_000);

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const random = new SeededRandom((Date.now() + 29) % 1_000_000_007);
const limits = { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 };

/** App users of a project database on Neon (its API faked on the local PostgreSQL), reached through the owner's login. */
async function neonProjectStores(): Promise<{ ref: string; fake: FakeNeonServer; stores: ProjectAuthStores; all: PgAppAuthStores; provisioner: NeonProvisioner; close(): Promise<void> }> {
  const fake = await new FakeNeonServer(adminUrl).start();
  const provisioner = new NeonProvisioner({ apiKey: fake.apiKey, apiUrl: fake.url, ssl: false });
  const ref = generateDatabaseRef(random);
  await provisioner.provision(ref, limits);
  const all = new PgAppAuthStores({ ownerUrl: (r) => provisioner.ownerUrl(r) });
  const stores = await all.forRef(ref);
  return {
    ref,
    fake,
    stores,
    all,
    provisioner,
    close: async () => {
      await all.close();
      await fake.stop();
    },
  };
}

authUserRepositoryContract('app users in a Neon project database', async () => {
  const p = await neonProjectStores();
  return { users: p.stores.users, newId: () => randomUUID(), close: p.close };
});

sessionStoreContract('app users in a Neon project database', async () => {
  const p = await neonProjectStores();
  const newUserId = async () => {
    const id = randomUUID();
    await p.stores.users.insert(createAuthUser({ id, identityId: randomUUID(), email: `u-${id}@example.com` as EmailAddress, passwordHash: null, metadata: {} }, new Date()));
    return id;
  };
  return { sessions: p.stores.sessions, newId: () => randomUUID(), newUserId, close: p.close };
});

describe('PgAppAuthStores on Neon (the owner’s login, asked of Neon per pool)', () => {
  let p: Awaited<ReturnType<typeof neonProjectStores>>;
  beforeAll(async () => {
    p = await neonProjectStores();
  });
  afterAll(async () => {
    await p?.close();
  });

  it('keeps the users in the project’s own database, schema auth, out of reach of the data API’s roles', async () => {
    const email = `neon-${randomUUID()}@example.com` as EmailAddress;
    const user = createAuthUser({ id: randomUUID(), identityId: randomUUID(), email, passwordHash: 'h', metadata: {} }, new Date());
    expect(await p.stores.users.insert(user)).toBe('inserted');
    const url = new URL(adminUrl);
    url.pathname = `/${databaseNames(p.ref).database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      expect((await client.query('SELECT email FROM auth.auth_users WHERE id = $1', [user.id])).rows).toEqual([{ email }]);
      for (const role of ['anon', 'authenticated', databaseNames(p.ref).authenticator]) {
        const { rows } = await client.query<{ readable: boolean }>(
          `SELECT has_table_privilege($1, 'auth.auth_users', 'SELECT') OR has_table_privilege($1, 'auth.auth_refresh_tokens', 'SELECT') OR has_table_privilege($1, 'auth.auth_sessions', 'SELECT') AS readable`,
          [role],
        );
        expect({ role, readable: rows[0]!.readable }).toEqual({ role, readable: false });
      }
    } finally {
      await client.end();
    }
  });

  it('is unavailable (DatabaseServerDown) while Neon’s API is down, and opens once it is back', async () => {
    await p.all.release(p.ref);
    p.fake.failNext = 1;
    await expect(p.all.forRef(p.ref)).rejects.toMatchObject({ name: 'DatabaseServerDown' });
    const again = await p.all.forRef(p.ref);
    expect(await again.users.findById(randomUUID())).toBeNull();
  });

  it('refuses a ref without a Neon project', async () => {
    await expect(p.all.forRef(generateDatabaseRef(random))).rejects.toMatchObject({ name: 'DatabaseServerDown' });
  });
});
