import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AuthClient, type GoTrueClient } from '@supabase/auth-js';
import { DEFAULT_TEST_DATABASE_URL } from '@kiln/adapters/testing';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { createApp } from '../bootstrap.js';
import { inMemoryHosting } from '../testing/e2e.js';
import { loadConfig } from '../config.js';
import { postgresAuthStores } from '../persistence/postgres-auth-stores.js';
import { POSTGRES_DATA_SOURCE, PostgresPersistenceModule } from '../persistence/postgres-persistence.module.js';
import { AuthModule } from './auth.module.js';

jest.setTimeout(60_000);

/**
 * The whole auth HTTP stack on PostgreSQL: createApp with PostgresPersistenceModule and the Pg
 * auth stores (postgresAuthStores), driven by @supabase/auth-js over real HTTP, in a private
 * schema dropped afterwards. Mail goes to the mail_outbox table and is read back through
 * GET /api/dev/outbox.
 */
describe('@supabase/auth-js against /auth/v1 on PostgreSQL', () => {
  const schema = `e2e_auth_${randomBytes(6).toString('hex')}`;
  let dataDir: string;
  let app: NestExpressApplication;
  let url: string;
  let db: DataSource;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kiln-auth-pg-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    app = await createApp(config, {
      persistence: PostgresPersistenceModule.forRoot({ url: process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL, schema }),
      auth: AuthModule.register({ stores: postgresAuthStores }),
      sandboxHost: new InMemorySandboxHost(),
      hosting: inMemoryHosting(),
    });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    db = app.get<DataSource>(POSTGRES_DATA_SOURCE, { strict: false });
  });
  afterAll(async () => {
    try {
      if (db) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await app?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  });

  const client = (): GoTrueClient =>
    new AuthClient({ url: `${url}/auth/v1`, fetch: (...args) => fetch(...args), persistSession: false, autoRefreshToken: false, detectSessionInUrl: false });
  const latestCode = async (email: string): Promise<string | null> => {
    const response = await request(url).get('/api/dev/outbox').query({ email }).expect(200);
    const [newest] = response.body as { text: string }[];
    return newest ? (/\b(\d{6})\b/.exec(newest.text)?.[1] ?? null) : null;
  };
  const profile = (accessToken: string) => request(url).get('/api/profile').set('Authorization', `Bearer ${accessToken}`);

  it('signs up, verifies the mailed code, signs in, refreshes, reads the user and the profile, signs out', async () => {
    const email = `pg-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    const auth = client();

    const signedUp = await auth.signUp({ email, password, options: { data: { full_name: 'Ana' } } });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session).toBeNull();
    const userId = signedUp.data.user?.id ?? '';
    expect(await db.query(`SELECT email, email_confirmed_at FROM "${schema}".auth_users WHERE id = $1`, [userId])).toEqual([
      { email, email_confirmed_at: null },
    ]);

    const code = await latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await auth.verifyOtp({ email, token: code ?? '', type: 'signup' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();
    expect(verified.data.user?.user_metadata).toMatchObject({ full_name: 'Ana', email_verified: true });
    // the code is single use
    expect((await client().verifyOtp({ email, token: code ?? '', type: 'signup' })).error?.code).toBe('otp_expired');

    const signedIn = await auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.user?.id).toBe(userId);
    const first = signedIn.data.session;

    const refreshed = await auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(first?.refresh_token);
    const sessionRows = (await db.query(
      `SELECT s.id, count(t.*) FILTER (WHERE t.revoked_at IS NULL)::int AS active, max(t.generation)::int AS generation
         FROM "${schema}".auth_sessions s JOIN "${schema}".auth_refresh_tokens t ON t.session_id = s.id
        WHERE s.user_id = $1 GROUP BY s.id ORDER BY max(t.generation)`,
      [userId],
    )) as { active: number; generation: number }[];
    // the verification's session and the password session, the latter refreshed once
    expect(sessionRows.map((r) => [r.active, r.generation])).toEqual([
      [1, 0],
      [1, 1],
    ]);

    const got = await auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user).toMatchObject({ id: userId, email });

    const accessToken = refreshed.data.session?.access_token ?? '';
    const ok = await profile(accessToken);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: userId, email });

    expect((await auth.signOut()).error).toBeNull();
    expect(await db.query(`SELECT count(*)::int AS n FROM "${schema}".auth_sessions WHERE user_id = $1 AND ended_at IS NULL`, [userId])).toEqual([{ n: 0 }]);
    expect(await db.query(`SELECT count(*)::int AS n FROM "${schema}".auth_refresh_tokens t JOIN "${schema}".auth_sessions s ON s.id = t.session_id WHERE s.user_id = $1 AND t.revoked_at IS NULL`, [userId])).toEqual([{ n: 0 }]);
    expect((await profile(accessToken)).status).toBe(401);
    expect((await client().refreshSession({ refresh_token: refreshed.data.session?.refresh_token ?? '' })).error).not.toBeNull();
  });
});
