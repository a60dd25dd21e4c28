import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { LocalPostgresProvisioner, PgAppAuthStores, SystemClock } from '@kiln/adapters';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import { type DatabaseConnection, databaseNames, generateDatabaseRef } from '@kiln/domain';
import { InMemoryRateLimiter, SeededRandom } from '@kiln/domain/testing';
import { decodeJwt } from 'jose';
import pg from 'pg';
import { type AppAuthServer, startAppAuthServer } from './testing/app-auth-harness.js';

jest.setTimeout(60_000);

const adminUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;

async function withClient<T>(config: pg.ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * App users' access tokens with row-level security: users sign up through supabase-js against the
 * handler (their accounts in the project database's `auth` schema), the owner's policy says
 * `user_id = auth.uid()`, and the authenticator — as the data API does it — sees only the rows of
 * the user whose claims it set.
 */
describe('App sign-in tokens with RLS in a provisioned project database', () => {
  const ref = generateDatabaseRef(new SeededRandom(Date.now() % 1_000_000_007));
  const provisioner = new LocalPostgresProvisioner({ adminUrl });
  const stores = new PgAppAuthStores({ adminUrl });
  const projectUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${databaseNames(ref).database}`;
    return url.toString();
  })();
  let connection: DatabaseConnection;
  let app: AppAuthServer;

  beforeAll(async () => {
    connection = await provisioner.provision(ref, { sizeMb: 50, connections: 3, statementTimeoutMs: 2_000 });
    app = await startAppAuthServer({ secrets: new Map([[ref, randomBytes(32).toString('hex')]]), stores, rateLimiter: new InMemoryRateLimiter(new SystemClock()) });
  });
  afterAll(async () => {
    await app?.close();
    await stores.close();
    await provisioner.drop(ref);
    await provisioner.close();
  });

  it('lets user A see only A’s rows', async () => {
    const supabase = await app.client(ref);
    const a = await supabase.auth.signUp({ email: `a-${ref}@example.com`, password: 'user a password' });
    const b = await supabase.auth.signUp({ email: `b-${ref}@example.com`, password: 'user b password' });
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    const idA = a.data.user!.id;
    const idB = b.data.user!.id;

    await withClient({ connectionString: projectUrl }, async (admin) => {
      await admin.query(`SET ROLE "${databaseNames(ref).owner}"`);
      await admin.query('CREATE TABLE public.notes (id serial PRIMARY KEY, user_id uuid NOT NULL, body text NOT NULL)');
      await admin.query('CREATE POLICY owner_only ON public.notes FOR ALL TO authenticated USING (user_id = auth.uid()) WITH CHECK (user_id = auth.uid())');
      await admin.query('RESET ROLE');
      await admin.query(`INSERT INTO public.notes (user_id, body) VALUES ($1, 'a1'), ($1, 'a2'), ($2, 'b1')`, [idA, idB]);
    });

    const claimsA = decodeJwt(a.data.session!.access_token);
    expect(claimsA).toMatchObject({ sub: idA, role: 'authenticated', ref });
    const rows = await withClient(
      { host: connection.host, port: connection.port, database: connection.database, user: connection.user, password: connection.password },
      async (authenticator) => {
        await authenticator.query('BEGIN');
        await authenticator.query('SET LOCAL ROLE authenticated');
        await authenticator.query(`SELECT set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claimsA)]);
        const uid = await authenticator.query<{ uid: string }>('SELECT auth.uid() AS uid');
        const notes = await authenticator.query<{ body: string }>('SELECT body FROM public.notes ORDER BY body');
        const insertForB = await authenticator.query('INSERT INTO public.notes (user_id, body) VALUES ($1, $2)', [idB, 'forged']).catch((e: { code?: string }) => e.code);
        await authenticator.query('ROLLBACK');
        return { uid: uid.rows[0]!.uid, bodies: notes.rows.map((r) => r.body), insertForB };
      },
    );
    expect(rows).toEqual({ uid: idA, bodies: ['a1', 'a2'], insertForB: '42501' });
  });
});
