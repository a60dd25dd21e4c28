import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { type DatabaseRelay, DEFAULT_TEST_DATABASE_URL, startDatabaseRelay } from '@kiln/adapters/testing';
import { InMemorySandboxHost } from '@kiln/domain/testing';
import pg from 'pg';
import request from 'supertest';
import { AuthModule } from '../auth/auth.module.js';
import { createApp } from '../bootstrap.js';
import { loadConfig } from '../config.js';
import { postgresAuthStores } from '../persistence/postgres-auth-stores.js';
import { PostgresPersistenceModule } from '../persistence/postgres-persistence.module.js';
import { type TestApp, inMemoryHosting, newUser, signIn, startTestApp } from '../testing/e2e.js';

jest.setTimeout(60_000);

const databaseUrl = process.env['DATABASE_URL'] ?? DEFAULT_TEST_DATABASE_URL;
const UNAVAILABLE = { code: 'DATABASE_UNAVAILABLE', detail: expect.stringContaining('try again') };

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * The database goes away under a running app (a relay in front of the test server is cut: the
 * pooled connections drop, new ones are refused). Every route that needs it answers 503
 * DATABASE_UNAVAILABLE with Retry-After — never a 500 — and works again once it is back.
 */
describe('a database outage under a running app (/api)', () => {
  const schema = `e2e_outage_${randomBytes(6).toString('hex')}`;
  let relay: DatabaseRelay;
  let t: TestApp;

  beforeAll(async () => {
    relay = await startDatabaseRelay(databaseUrl);
    t = await startTestApp({ overrides: { persistence: PostgresPersistenceModule.forRoot({ url: relay.url, schema, connectTimeoutMs: 2_000 }), logLevel: 'silent' } });
  });
  afterAll(async () => {
    await t?.close();
    relay?.cut();
    await dropSchema(schema);
  });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After on every route that needs it, then recovers', async () => {
    const ana = newUser('Ana');
    await signIn(t, ana);
    const project = await t.http().post('/api/projects').set(ana.auth).send({ name: 'Before the outage' });
    expect(project.status).toBe(201);
    expect((await t.http().post('/api/credits/consume').set(ana.auth).set('Idempotency-Key', 'before')).status).toBe(200);
    const newcomer = newUser('Ben'); // never seen: the profile check itself needs the database

    relay.cut();
    const during = [
      ['POST /api/credits/consume', t.http().post('/api/credits/consume').set(ana.auth).set('Idempotency-Key', 'during')],
      ['GET /api/profile', t.http().get('/api/profile').set(ana.auth)],
      ['PATCH /api/profile', t.http().patch('/api/profile').set(ana.auth).send({ name: 'Ana B' })],
      ['GET /api/projects', t.http().get('/api/projects').set(ana.auth)],
      ['POST /api/projects', t.http().post('/api/projects').set(ana.auth).send({ name: 'During' })],
      ['PATCH /api/projects/:id', t.http().patch(`/api/projects/${project.body.id as string}`).set(ana.auth).send({ name: 'Renamed' })],
      ['GET /api/usage', t.http().get('/api/usage').set(ana.auth)],
      ['GET /api/referrals', t.http().get('/api/referrals').set(ana.auth)],
      ['POST /api/profile/ensure (a new user)', t.http().post('/api/profile/ensure').set(newcomer.auth).send({})],
      ['GET /api/profile (a new user)', t.http().get('/api/profile').set(newcomer.auth)],
    ] as const;
    for (const [route, call] of during) {
      const response = await call;
      expect({ route, status: response.status, body: response.body, retryAfter: response.headers['retry-after'] }).toEqual({
        route,
        status: 503,
        body: UNAVAILABLE,
        retryAfter: '5',
      });
    }
    // Routes that need no database keep answering; health says why the others do not.
    expect((await t.http().get('/api/plans')).status).toBe(200);
    const health = await t.http().get('/health');
    expect(health.status).toBe(503);
    expect(health.headers['retry-after']).toBe('5');

    await relay.restore();
    const after = await t.http().post('/api/credits/consume').set(ana.auth).set('Idempotency-Key', 'after');
    expect(after.status).toBe(200);
    expect(after.body.credits_remaining).toBe(3);
    expect((await t.http().get('/api/profile').set(newcomer.auth)).status).toBe(200);
  });
});

describe('a database outage under a running app (built-in auth: /auth/v1 and the bearer check)', () => {
  const schema = `e2e_outage_auth_${randomBytes(6).toString('hex')}`;
  let relay: DatabaseRelay;
  let dataDir: string;
  let app: NestExpressApplication;
  let url: string;

  beforeAll(async () => {
    relay = await startDatabaseRelay(databaseUrl);
    dataDir = await mkdtemp(join(tmpdir(), 'kiln-outage-'));
    app = await createApp(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), {
      persistence: PostgresPersistenceModule.forRoot({ url: relay.url, schema, connectTimeoutMs: 2_000 }),
      auth: AuthModule.register({ stores: postgresAuthStores, argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }),
      sandboxHost: new InMemorySandboxHost(),
      hosting: inMemoryHosting(),
      logLevel: 'silent',
    });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(async () => {
    await app?.close();
    relay?.cut();
    await dropSchema(schema);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("answers 503 in GoTrue's shape on /auth/v1 (with Retry-After), and 503 on /api for a signed-in user", async () => {
    const email = `outage-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    expect((await request(url).post('/auth/v1/signup').send({ email, password })).status).toBe(200);
    const code = /\b(\d{6})\b/.exec(((await request(url).get('/api/dev/outbox').query({ email })).body as { text: string }[])[0]?.text ?? '')?.[1];
    const verified = await request(url).post('/auth/v1/verify').send({ type: 'signup', email, token: code });
    expect(verified.status).toBe(200);
    const bearer = `Bearer ${verified.body.access_token as string}`;
    expect((await request(url).get('/api/profile').set('Authorization', bearer)).status).toBe(200);

    relay.cut();
    const versioned = await request(url).post('/auth/v1/token').query({ grant_type: 'password' }).set('X-Supabase-Api-Version', '2024-01-01').send({ email, password });
    expect(versioned.status).toBe(503);
    expect(versioned.headers['retry-after']).toBe('5');
    expect(versioned.headers['x-sb-error-code']).toBe('DATABASE_UNAVAILABLE');
    expect(versioned.body).toEqual({ code: 'DATABASE_UNAVAILABLE', message: expect.stringContaining('try again') });
    const unversioned = await request(url).get('/auth/v1/user').set('Authorization', bearer);
    expect(unversioned.status).toBe(503);
    expect(unversioned.headers['retry-after']).toBe('5');
    expect(unversioned.body).toEqual({ code: 503, error_code: 'DATABASE_UNAVAILABLE', msg: expect.stringContaining('try again') });
    const signUp = await request(url).post('/auth/v1/signup').send({ email: `other-${email}`, password });
    expect({ status: signUp.status, retryAfter: signUp.headers['retry-after'] }).toEqual({ status: 503, retryAfter: '5' });
    // The bearer check of /api routes reads the session: the same 503 as the handlers.
    const profile = await request(url).get('/api/profile').set('Authorization', bearer);
    expect({ status: profile.status, body: profile.body, retryAfter: profile.headers['retry-after'] }).toEqual({ status: 503, body: UNAVAILABLE, retryAfter: '5' });
    const consume = await request(url).post('/api/credits/consume').set('Authorization', bearer).set('Idempotency-Key', 'k1');
    expect({ status: consume.status, body: consume.body }).toEqual({ status: 503, body: UNAVAILABLE });

    await relay.restore();
    expect((await request(url).get('/api/profile').set('Authorization', bearer)).status).toBe(200);
  });
});
