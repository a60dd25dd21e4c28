import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import type { AccessTokenClaims } from '@kiln/domain';
import { FixedClock } from '@kiln/domain/testing';
import { JoseAccessTokenSigner } from './jose-access-token.adapter.js';

const ISSUER = 'http://localhost:3000/auth/v1';

function claimsAt(clock: FixedClock, overrides: Partial<AccessTokenClaims> = {}): AccessTokenClaims {
  const iat = Math.floor(clock.now().getTime() / 1000);
  return {
    iss: ISSUER,
    sub: '5f8a3c1e-0000-4000-8000-000000000001',
    aud: 'authenticated',
    iat,
    exp: iat + 3600,
    email: 'ana@example.com',
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: { full_name: 'Ana' },
    role: 'authenticated',
    aal: 'aal1',
    amr: [{ method: 'password', timestamp: iat }],
    session_id: '5f8a3c1e-0000-4000-8000-0000000000aa',
    is_anonymous: false,
    ...overrides,
  };
}

describe('JoseAccessTokenSigner', () => {
  let dir: string;
  const clock = new FixedClock(new Date());

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kiln-jwt-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('signs ES256 JWTs with its key id and verifies them back to the same claims', async () => {
    const signer = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER });
    const claims = claimsAt(clock);
    const token = await signer.sign(claims);
    expect(token.split('.')).toHaveLength(3);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString());
    expect(header).toEqual({ alg: 'ES256', kid: signer.keyId, typ: 'JWT' });
    expect(await signer.verify(token)).toEqual({ ok: true, value: claims });
  });

  it('publishes only public keys, and third parties can verify with them', async () => {
    const signer = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER });
    const jwks = await signer.publicKeys();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: signer.keyId });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const token = await signer.sign(claimsAt(clock));
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks as never), { audience: 'authenticated', currentDate: clock.now() });
    expect(payload.sub).toBe('5f8a3c1e-0000-4000-8000-000000000001');
  });

  it('refuses expired tokens by the injected clock', async () => {
    const local = new FixedClock(new Date());
    const signer = await JoseAccessTokenSigner.create({ clock: local, issuer: ISSUER });
    const token = await signer.sign(claimsAt(local));
    local.advance(3599_000);
    expect((await signer.verify(token)).ok).toBe(true);
    local.advance(1_000);
    expect(await signer.verify(token)).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN', message: expect.stringContaining('expired') } });
  });

  it('refuses another audience, another issuer and missing claims', async () => {
    const signer = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER });
    for (const overrides of [{ aud: 'anon' }, { iss: 'https://evil.example/auth/v1' }, { session_id: undefined as unknown as string }, { aal: 'aal9' as 'aal1' }]) {
      expect((await signer.verify(await signer.sign(claimsAt(clock, overrides)))).ok).toBe(false);
    }
  });

  it('refuses tokens of another key, HS256, alg none and tampered payloads', async () => {
    const signer = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER });
    const other = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER });
    const claims = claimsAt(clock);
    expect((await signer.verify(await other.sign(claims))).ok).toBe(false);

    const hs = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', kid: signer.keyId }).sign(new TextEncoder().encode('x'.repeat(32)));
    expect((await signer.verify(hs)).ok).toBe(false);

    const none = new UnsecuredJWT({ ...claims }).encode();
    expect((await signer.verify(none)).ok).toBe(false);

    const [h, , s] = (await signer.sign(claims)).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url');
    expect((await signer.verify(`${h}.${forged}.${s}`)).ok).toBe(false);
    expect((await signer.verify('not.a.jwt')).ok).toBe(false);
  });

  it('refuses a token whose header names another key id, even if our key signed it', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const signer = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER, privateKey: JSON.stringify({ ...(await exportJWK(privateKey)), kid: 'ours' }) });
    const token = await new SignJWT({ ...claimsAt(clock) }).setProtectedHeader({ alg: 'ES256', kid: 'someone-else' }).sign(privateKey);
    expect((await signer.verify(token)).ok).toBe(false);
    const noKid = await new SignJWT({ ...claimsAt(clock) }).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
    expect((await signer.verify(noKid)).ok).toBe(true);
  });

  it('loads a configured PKCS#8 PEM key (also with escaped newlines, as env files write it)', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const a = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER, privateKey: pem });
    const b = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER, privateKey: pem.replace(/\n/g, '\\n') });
    expect(a.keyId).toBe(b.keyId);
    expect((await b.verify(await a.sign(claimsAt(clock)))).ok).toBe(true);
  });

  it('loads a configured JWK key, keeping its kid', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: 'kiln-2026-01' };
    const signer = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER, privateKey: JSON.stringify(jwk) });
    expect(signer.keyId).toBe('kiln-2026-01');
    expect((await signer.verify(await signer.sign(claimsAt(clock)))).ok).toBe(true);
  });

  it('refuses keys it must not sign with (RSA, P-384, public only, garbage) with a readable error', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const publicOnly = JSON.stringify(await exportJWK(publicKey));
    for (const privateKey of [rsa, p384, publicOnly, 'hunter2', '{not json']) {
      await expect(JoseAccessTokenSigner.create({ clock, issuer: ISSUER, privateKey })).rejects.toThrow(/AUTH_JWT_PRIVATE_KEY/);
    }
  });

  it('generates a key into the key file (mode 0600) once, and reuses it after a restart', async () => {
    const keyFile = join(dir, 'auth', 'jwt-key.json');
    const first = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER, keyFile });
    const stored = JSON.parse(await readFile(keyFile, 'utf8'));
    expect(stored).toMatchObject({ kty: 'EC', crv: 'P-256', kid: first.keyId });
    expect(typeof stored.d).toBe('string');
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    const restarted = await JoseAccessTokenSigner.create({ clock, issuer: ISSUER, keyFile });
    expect(restarted.keyId).toBe(first.keyId);
    expect((await restarted.verify(await first.sign(claimsAt(clock)))).ok).toBe(true);
  });

  it('two processes starting at once agree on one generated key', async () => {
    const keyFile = join(dir, 'race', 'jwt-key.json');
    const signers = await Promise.all(Array.from({ length: 5 }, () => JoseAccessTokenSigner.create({ clock, issuer: ISSUER, keyFile })));
    expect(new Set(signers.map((s) => s.keyId)).size).toBe(1);
  });
});
