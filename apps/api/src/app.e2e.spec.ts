import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type DynamicModule, Module } from '@nestjs/common';
import type { ProfileRepository } from '@kiln/domain';
import { InMemoryPersistenceModule } from './testing/in-memory-persistence.module.js';
import { type TestApp, newUser, startTestApp } from './testing/e2e.js';
import { PROFILE_REPOSITORY } from './tokens.js';

describe('API (HTTP) — errors, security headers, CORS, OpenAPI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers 404 { code, detail } for an unknown path', async () => {
    const response = await t.http().get('/nope');
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ code: 'NOT_FOUND', detail: 'Cannot GET /nope' });
  });

  it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
    const user = newUser();
    const response = await t.http().post('/api/projects').set(user.auth).set('Content-Type', 'application/json').send('{"name":');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: 'VALIDATION_FAILED', detail: 'body: is not valid JSON' });
  });

  it("accepts a request line and headers up to 64 KiB (the data API's 16 KiB URLs plus their JWTs), past that Node's 431", async () => {
    // Node's default (16 KiB for line and headers together) refused such a request with a bare 431.
    const jwt = `Bearer ${'x'.repeat(1500)}`;
    const near = await t.http().get(`/nope?in=${'a'.repeat(16 * 1024 - 20)}`).set('X-Jwt', jwt).set('X-Other', jwt);
    expect([near.status, near.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await t.http().get(`/nope?in=${'a'.repeat(60 * 1024)}`)).status).toBe(404);
    expect((await t.http().get(`/nope?in=${'a'.repeat(66 * 1024)}`)).status).toBe(431);
  });

  it('sets helmet security headers and no X-Powered-By', async () => {
    const response = await t.http().get('/api/plans');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('marks /api responses as not cacheable', async () => {
    const response = await t.http().get('/api/plans');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', async () => {
    expect((await t.http().get('/api/plans').set('X-Request-Id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
    expect((await t.http().get('/api/plans').set('X-Request-Id', 'bad id\u00e9')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  describe('CORS', () => {
    it('allows the web origin with credentials and the Idempotency-Key header', async () => {
      const response = await t
        .http()
        .options('/api/credits/consume')
        .set('Origin', 'http://localhost:5173')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,idempotency-key');
      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(response.headers['access-control-allow-headers']?.toLowerCase()).toContain('idempotency-key');
      expect(response.headers['access-control-allow-headers']?.toLowerCase()).toContain('authorization');
    });

    it('does not allow another origin', async () => {
      const response = await t.http().get('/api/plans').set('Origin', 'https://evil.example.com');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('exposes the headers auth-js needs to read', async () => {
      const response = await t.http().get('/api/plans').set('Origin', 'http://localhost:3000');
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(response.headers['access-control-expose-headers']).toContain('X-Supabase-Api-Version');
    });
  });

  describe('OpenAPI', () => {
    it('serves the JSON document at /api/docs-json with every endpoint', async () => {
      const response = await t.http().get('/api/docs-json');
      expect(response.status).toBe(200);
      const paths = Object.keys(response.body.paths as Record<string, unknown>);
      expect(paths).toEqual(
        expect.arrayContaining([
          '/health',
          '/api/profile',
          '/api/profile/ensure',
          '/api/plans',
          '/api/plans/current',
          '/api/usage',
          '/api/credits/consume',
          '/api/referrals',
          '/api/referrals/apply',
          '/api/projects',
          '/api/projects/{id}',
          '/api/projects/{id}/publish-check',
          '/api/dev/outbox',
        ]),
      );
      expect(response.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    });

    it('serves the Swagger UI at /api/docs', async () => {
      const response = await t.http().get('/api/docs').redirects(1);
      expect(response.status).toBe(200);
      expect(response.text).toContain('swagger-ui');
    });
  });
});

describe('API (HTTP) — the bearer-token guard', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers 401 no_authorization without a token, with a WWW-Authenticate challenge', async () => {
    const response = await t.http().get('/api/profile');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'no_authorization', detail: 'This endpoint requires a Bearer token' });
    expect(response.headers['www-authenticate']).toBe('Bearer realm="kiln"');
  });

  it.each(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer a b', 'test:abc:a@b.c'])('answers 401 no_authorization for the header %p', async (header) => {
    const response = await t.http().get('/api/profile').set('Authorization', header);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('no_authorization');
  });

  it('answers 401 bad_jwt for a forged token', async () => {
    const response = await t.http().get('/api/profile').set('Authorization', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'bad_jwt', detail: 'invalid JWT: unable to parse or verify signature' });
    expect(response.headers['www-authenticate']).toBe('Bearer realm="kiln", error="invalid_token"');
  });

  it('answers 401 session_not_found for a token of a signed-out session', async () => {
    const response = await t.http().get('/api/profile').set('Authorization', 'Bearer ended:someone');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'session_not_found', detail: 'Session not found' });
  });

  it('accepts the scheme in any case', async () => {
    const user = newUser();
    const response = await t.http().get('/api/profile').set('Authorization', `bearer ${user.token}`);
    expect(response.status).toBe(200);
  });

  it('cannot be skipped by changing the case of the path', async () => {
    const response = await t.http().get('/API/Profile');
    expect(response.status).toBe(401);
  });

  it('leaves public routes open', async () => {
    expect((await t.http().get('/api/plans')).status).toBe(200);
    expect((await t.http().get('/health')).status).toBe(200);
  });
});

describe('API (HTTP) — failures', () => {
  it('answers 401 on every protected route when no auth module is bound (the default)', async () => {
    const t = await startTestApp({ overrides: { accessTokenVerifier: undefined } });
    try {
      const user = newUser();
      const response = await t.http().get('/api/profile').set(user.auth);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: 'bad_jwt', detail: 'Sign-in is not configured on this server' });
    } finally {
      await t.close();
    }
  });

  it('answers an unexpected failure with a 500 that hides the internals', async () => {
    // The in-memory persistence with a profile repository whose reads throw.
    @Module({})
    class BrokenPersistence {}
    const inMemory = InMemoryPersistenceModule.forRoot();
    const broken: DynamicModule = {
      module: BrokenPersistence,
      imports: [inMemory],
      providers: [
        {
          provide: PROFILE_REPOSITORY,
          useValue: {
            findById: () => Promise.reject(new Error('connection reset by peer (secret internals)')),
          } as unknown as ProfileRepository,
        },
      ],
      exports: [inMemory, PROFILE_REPOSITORY],
    };
    const t = await startTestApp({ overrides: { persistence: broken } });
    try {
      const user = newUser();
      const response = await t.http().get('/api/profile').set(user.auth);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ code: 'INTERNAL', detail: 'Internal Server Error' });
    } finally {
      await t.close();
    }
  });
});
