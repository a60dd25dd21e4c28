import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { NeonProvisioner, PgAppAuthStores, SystemClock } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL, FakeNeonServer } from '@kiln/adapters/testing';
import { databaseNames, generateDatabaseRef } from '@kiln/domain';
import { InMemoryRateLimiter, SeededRandom } from '@kiln/domain/testing';
import pg from 'pg';
import { type AppAuthServer, loopbackFetch, startAppAuthServer } from './testing/app-auth-harness.js';

jest.setTimeout(60_000);

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

/**
 * App sign-in with DATABASE_PROVIDER=neon (Neon's API faked on the local PostgreSQL): supabase-js
 * signs up and in against the handler, the users live in the Neon project database's `auth`
 * schema, reached through its owner's login asked of Neon; Neon's API down is a 503 with
 * Retry-After, not a 500.
 */
describe('App sign-in on Neon', () => {
  const random = new SeededRandom((Date.now() + 41) % 1_000_000_007);
  const ref = generateDatabaseRef(random);
  const other = generateDatabaseRef(random);
  let fake: FakeNeonServer;
  let stores: PgAppAuthStores;
  let app: AppAuthServer;

  beforeAll(async () => {
    fake = await new FakeNeonServer(adminUrl).start();
    const provisioner = new NeonProvisioner({ apiKey: fake.apiKey, apiUrl: fake.url, ssl: false });
    for (const r of [ref, other]) await provisioner.provision(r, { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 });
    // As production-databases.ts wires it for Neon.
    stores = new PgAppAuthStores({ ownerUrl: (r) => provisioner.ownerUrl(r) });
    const secrets = new Map([ref, other].map((r) => [r, randomBytes(32).toString('hex')]));
    app = await startAppAuthServer({ secrets, stores, rateLimiter: new InMemoryRateLimiter(new SystemClock()) });
  });
  afterAll(async () => {
    await app?.close();
    await stores?.close();
    await fake?.stop();
  });

  it('signs up, signs in and reads the user, keeping them in the project database', async () => {
    const supabase = await app.client(ref);
    const email = `neon-${ref}@example.com`;
    const up = await supabase.auth.signUp({ email, password: 'a neon password' });
    expect(up.error).toBeNull();
    expect(up.data.session?.access_token).toEqual(expect.any(String));
    await supabase.auth.signOut();
    const signedIn = await supabase.auth.signInWithPassword({ email, password: 'a neon password' });
    expect(signedIn.error).toBeNull();
    expect((await supabase.auth.getUser()).data.user?.email).toBe(email);
    const url = new URL(adminUrl);
    url.pathname = `/${databaseNames(ref).database}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    try {
      expect((await admin.query('SELECT email FROM auth.auth_users')).rows).toEqual([{ email }]);
    } finally {
      await admin.end();
    }
  });

  it('answers 503 with Retry-After while Neon’s API cannot be reached', async () => {
    fake.failNext = 2;
    const response = await loopbackFetch(`http://${other}.data.localhost:${app.port}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: await app.anonKey(other), 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' },
      body: JSON.stringify({ email: `down-${other}@example.com`, password: 'a neon password' }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    fake.failNext = 0;
    const supabase = await app.client(other);
    expect((await supabase.auth.signUp({ email: `up-${other}@example.com`, password: 'a neon password' })).error).toBeNull();
  });
});
