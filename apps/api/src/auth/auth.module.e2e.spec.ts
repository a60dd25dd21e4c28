import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Global, type INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ExternalAccessTokenVerifier } from '@kiln/adapters';
import type { AccessTokenVerifier } from '@kiln/domain';
import { FixedClock, RecordingMailer } from '@kiln/domain/testing';
import { SignJWT } from 'jose';
import request from 'supertest';
import { CoreModule } from '../common/core.module.js';
import { type Env, loadConfig } from '../config.js';
import { inMemoryAuthStores } from '../testing/in-memory-auth-stores.js';
import { ACCESS_TOKEN_VERIFIER, MAILER } from '../tokens.js';
import { type AuthTestApp, PASSWORD, freshEmail, startAuthApp } from './testing/auth-e2e.harness.js';
import { AuthModule } from './auth.module.js';

const mailer = new RecordingMailer();
@Global()
@Module({ providers: [{ provide: MAILER, useValue: mailer }], exports: [MAILER] })
class TestMailModule {}

/** Only the AuthModule (no helmet, no global CORS, guard or filter): what the module itself does. */
async function bareAuthApp(env: Env = {}): Promise<{ app: INestApplication; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kiln-auth-bare-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env });
  const moduleRef = await Test.createTestingModule({
    imports: [CoreModule.forRoot(config, { clock: new FixedClock(new Date()) }), TestMailModule, AuthModule.register({ stores: inMemoryAuthStores })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return { app, dataDir };
}

describe('AuthModule on its own', () => {
  const opened: { app: INestApplication; dataDir: string }[] = [];
  const open = async (env?: Env) => {
    const bare = await bareAuthApp(env);
    opened.push(bare);
    return bare.app;
  };
  afterEach(async () => {
    for (const { app, dataDir } of opened.splice(0)) {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  const preflight = (app: INestApplication, origin: string) =>
    request(app.getHttpServer())
      .options('/auth/v1/token?grant_type=password')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization,apikey,x-client-info,x-supabase-api-version,content-type');

  it('answers CORS preflights for /auth/v1 itself: the allowed headers, exposing the version header', async () => {
    const app = await open();
    const res = await preflight(app, 'http://localhost:5173');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, apikey, x-client-info, x-supabase-api-version, content-type');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-expose-headers']).toContain('X-Supabase-Api-Version');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toContain('Origin');
  });

  it('grants nothing to an origin outside WEB_ORIGIN in production-like modes', async () => {
    const app = await open();
    const res = await preflight(app, 'https://evil.example');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
  });

  it('reflects any origin in development', async () => {
    const app = await open({ NODE_ENV: 'development' });
    const res = await preflight(app, 'http://192.168.1.20:5173');
    expect(res.headers['access-control-allow-origin']).toBe('http://192.168.1.20:5173');
  });

  it('answers bad JSON in GoTrue’s shape without any global filter, and mails codes through MAILER', async () => {
    const app = await open();
    const bad = await request(app.getHttpServer()).post('/auth/v1/signup').set('Content-Type', 'application/json').send('{');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 400, error_code: 'bad_json' });
    const email = freshEmail();
    await request(app.getHttpServer()).post('/auth/v1/signup').send({ email, password: PASSWORD }).expect(200);
    expect(mailer.lastCode(email)).toMatch(/^\d{6}$/);
    expect(mailer.to(email)[0]?.subject).toContain(mailer.lastCode(email));
  });

  it('keeps a generated signing key in DATA_DIR/auth/jwt-key.json and reuses it after a restart', async () => {
    const first = await open();
    const kid = (await request(first.getHttpServer()).get('/auth/v1/.well-known/jwks.json')).body.keys[0].kid;
    const dataDir = opened[0]?.dataDir ?? '';
    const stored = JSON.parse(await readFile(join(dataDir, 'auth', 'jwt-key.json'), 'utf8'));
    expect(stored.kid).toBe(kid);
    await first.close();
    opened.splice(0, 1);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const moduleRef = await Test.createTestingModule({ imports: [CoreModule.forRoot(config), TestMailModule, AuthModule.register({ stores: inMemoryAuthStores })] }).compile();
    const second = moduleRef.createNestApplication({ logger: false });
    await second.init();
    opened.push({ app: second, dataDir });
    expect((await request(second.getHttpServer()).get('/auth/v1/.well-known/jwks.json')).body.keys[0].kid).toBe(kid);
  });

  it('signs with AUTH_JWT_PRIVATE_KEY when it is set', async () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const a = await open({ AUTH_JWT_PRIVATE_KEY: pem });
    const b = await open({ AUTH_JWT_PRIVATE_KEY: pem });
    const kidOf = async (app: INestApplication) => (await request(app.getHttpServer()).get('/auth/v1/.well-known/jwks.json')).body.keys[0].kid;
    expect(await kidOf(a)).toBe(await kidOf(b));
  });

  it('binds the built-in verifier, behind the second-factor gate, to ACCESS_TOKEN_VERIFIER by default', async () => {
    const app = await open();
    expect(app.get<AccessTokenVerifier>(ACCESS_TOKEN_VERIFIER).constructor.name).toBe('SecondFactorGate');
  });
});

describe('AuthModule pointed at an external Supabase project (SUPABASE_JWT_SECRET)', () => {
  const SECRET = 'an-external-supabase-jwt-secret-of-40-chars';
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthApp({ env: { SUPABASE_JWT_SECRET: SECRET } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('guards /api with the external verifier: the project’s tokens pass, Kiln’s own do not', async () => {
    expect(t.verifier).toBeInstanceOf(ExternalAccessTokenVerifier);
    const external = await new SignJWT({ sub: '0b6c5f1e-9d7a-4c3e-8f00-000000000001', aud: 'authenticated', role: 'authenticated', email: 'ext@example.com' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(Math.floor(t.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 3600)
      .sign(new TextEncoder().encode(SECRET));
    // the guard lets it through; the account is not in Kiln's store
    const res = await t.http().post('/api/auth/soft-delete').set('Authorization', `Bearer ${external}`);
    expect([res.status, res.body.code]).toEqual([404, 'AUTH.USER_NOT_FOUND']);

    const email = freshEmail();
    await t.http().post('/auth/v1/signup').send({ email, password: PASSWORD }).expect(200);
    const session = await t.http().post('/auth/v1/verify').send({ type: 'signup', email, token: await t.latestCode(email) }).expect(200);
    const own = await t.http().post('/api/auth/soft-delete').set('Authorization', `Bearer ${session.body.access_token}`);
    expect([own.status, own.body.code]).toEqual([401, 'bad_jwt']);
  });
});
