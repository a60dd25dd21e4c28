import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type CryptoKey, type JWK, SignJWT, exportJWK, generateKeyPair } from 'jose';
import { FixedClock } from '@kiln/domain/testing';
import { ExternalAccessTokenVerifier } from './external-access-token-verifier.adapter.js';

const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/** A stand-in for a Supabase project's /auth/v1/.well-known/jwks.json on a local port. */
async function jwksServer(keys: () => JWK[]) {
  let requests = 0;
  let down = false;
  const server: Server = createServer((req, res) => {
    requests += 1;
    if (down) {
      req.socket.destroy();
      return;
    }
    if (req.url !== '/auth/v1/.well-known/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keys() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/auth/v1/.well-known/jwks.json`,
    requests: () => requests,
    goDown: () => {
      down = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function supabaseClaims(clock: FixedClock, overrides: Record<string, unknown> = {}) {
  const iat = Math.floor(clock.now().getTime() / 1000);
  return {
    iss: 'https://abcd.supabase.co/auth/v1',
    sub: '11111111-1111-1111-1111-111111111111',
    aud: 'authenticated',
    exp: iat + 3600,
    iat,
    email: 'ana@example.com',
    role: 'authenticated',
    aal: 'aal1',
    session_id: '22222222-2222-2222-2222-222222222222',
    user_metadata: { full_name: 'Ana' },
    ...overrides,
  };
}

describe('ExternalAccessTokenVerifier', () => {
  const clock = new FixedClock(new Date());
  let es: { privateKey: CryptoKey; jwk: JWK };
  let rs: { privateKey: CryptoKey; jwk: JWK };
  let server: Awaited<ReturnType<typeof jwksServer>>;

  beforeAll(async () => {
    const ecPair = await generateKeyPair('ES256', { extractable: true });
    const rsaPair = await generateKeyPair('RS256', { extractable: true });
    es = { privateKey: ecPair.privateKey, jwk: { ...(await exportJWK(ecPair.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' } };
    rs = { privateKey: rsaPair.privateKey, jwk: { ...(await exportJWK(rsaPair.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' } };
    server = await jwksServer(() => [es.jwk, rs.jwk]);
  });
  afterAll(async () => {
    await server.close();
  });

  const sign = (alg: 'ES256' | 'RS256', claims: Record<string, unknown>, kid?: string) =>
    new SignJWT(claims).setProtectedHeader({ alg, kid: kid ?? (alg === 'ES256' ? 'ec-1' : 'rsa-1'), typ: 'JWT' }).sign(alg === 'ES256' ? es.privateKey : rs.privateKey);

  it('verifies ES256 and RS256 tokens against the project’s JWKS and maps the claims', async () => {
    const verifier = new ExternalAccessTokenVerifier({ clock, jwksUrl: server.url });
    const claims = supabaseClaims(clock);
    for (const alg of ['ES256', 'RS256'] as const) {
      expect(await verifier.verify(await sign(alg, claims))).toEqual({
        ok: true,
        value: {
          userId: claims.sub,
          email: 'ana@example.com',
          sessionId: claims.session_id,
          role: 'authenticated',
          aal: 'aal1',
          expiresAt: new Date(claims.exp * 1000),
          userMetadata: { full_name: 'Ana' },
        },
      });
    }
  });

  it('fetches the JWKS once and caches it', async () => {
    const verifier = new ExternalAccessTokenVerifier({ clock, jwksUrl: server.url });
    const before = server.requests();
    for (let i = 0; i < 5; i += 1) await verifier.verify(await sign('ES256', supabaseClaims(clock)));
    expect(server.requests() - before).toBe(1);
  });

  it('refuses another audience, an expired token, an unknown key and a missing subject', async () => {
    const verifier = new ExternalAccessTokenVerifier({ clock, jwksUrl: server.url });
    const expired = supabaseClaims(clock, { exp: Math.floor(clock.now().getTime() / 1000) - 1 });
    expect(await verifier.verify(await sign('ES256', supabaseClaims(clock, { aud: 'anon' })))).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN' } });
    expect(await verifier.verify(await sign('ES256', expired))).toMatchObject({ ok: false, error: { message: expect.stringContaining('expired') } });
    expect((await verifier.verify(await sign('ES256', supabaseClaims(clock), 'unknown-kid'))).ok).toBe(false);
    expect((await verifier.verify(await sign('ES256', supabaseClaims(clock, { sub: undefined })))).ok).toBe(false);
    expect(await verifier.verify('')).toMatchObject({ ok: false, error: { code: 'AUTH.MISSING_TOKEN' } });
    expect(await verifier.verify('a.b')).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN' } });
  });

  it('checks the issuer when one is configured', async () => {
    const verifier = new ExternalAccessTokenVerifier({ clock, jwksUrl: server.url, issuer: 'https://abcd.supabase.co/auth/v1' });
    expect((await verifier.verify(await sign('ES256', supabaseClaims(clock)))).ok).toBe(true);
    expect((await verifier.verify(await sign('ES256', supabaseClaims(clock, { iss: 'https://evil.supabase.co/auth/v1' })))).ok).toBe(false);
  });

  it('verifies HS256 tokens with the project’s JWT secret, and only then', async () => {
    const hs = (secret: string) => new SignJWT(supabaseClaims(clock)).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
    const withSecret = new ExternalAccessTokenVerifier({ clock, jwtSecret: SECRET });
    expect((await withSecret.verify(await hs(SECRET))).ok).toBe(true);
    expect((await withSecret.verify(await hs(`${SECRET}x`))).ok).toBe(false);
    // a JWKS-only verifier accepts no HS256 token (no algorithm confusion), a secret-only one no ES256 token
    expect((await new ExternalAccessTokenVerifier({ clock, jwksUrl: server.url }).verify(await hs(SECRET))).ok).toBe(false);
    expect((await withSecret.verify(await sign('ES256', supabaseClaims(clock)))).ok).toBe(false);
  });

  it('refuses alg none and unexpected algorithms', async () => {
    const verifier = new ExternalAccessTokenVerifier({ clock, jwksUrl: server.url, jwtSecret: SECRET });
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify(supabaseClaims(clock))).toString('base64url');
    expect((await verifier.verify(`${header}.${body}.sig`)).ok).toBe(false);
    const ps = await generateKeyPair('PS256');
    const token = await new SignJWT(supabaseClaims(clock)).setProtectedHeader({ alg: 'PS256', kid: 'rsa-1' }).sign(ps.privateKey);
    expect(await verifier.verify(token)).toMatchObject({ ok: false, error: { message: expect.stringContaining('PS256') } });
  });

  it('throws (an outage, not a bad token) when the JWKS cannot be fetched', async () => {
    const broken = await jwksServer(() => []);
    broken.goDown();
    const verifier = new ExternalAccessTokenVerifier({ clock, jwksUrl: broken.url, timeoutMs: 500 });
    await expect(verifier.verify(await sign('ES256', supabaseClaims(clock)))).rejects.toThrow();
    await broken.close();
  });

  it('needs a JWKS URL or a secret', () => {
    expect(() => new ExternalAccessTokenVerifier({ clock })).toThrow(/JWKS URL or a JWT secret/);
  });
});
