import { describe, expect, it } from '@jest/globals';
import type { AccessTokenClaims } from '@kiln/domain';
import { FixedClock } from '@kiln/domain/testing';
import { SignJWT, decodeJwt } from 'jose';
import { Hs256AppTokenSigner } from './hs256-app-token-signer.adapter.js';

const SECRET_X = 'x'.repeat(48);
const SECRET_Y = 'y'.repeat(48);
const NOW = new Date(Date.UTC(2026, 5, 1, 12));
const iat = Math.floor(NOW.getTime() / 1000);
const claims: AccessTokenClaims = {
  iss: 'http://x.data.localhost/auth/v1',
  sub: '7f3c1b2a-0000-4000-8000-000000000001',
  aud: 'authenticated',
  iat,
  exp: iat + 3600,
  email: 'ana@example.com',
  phone: '',
  app_metadata: { provider: 'email' },
  user_metadata: {},
  role: 'authenticated',
  aal: 'aal1',
  amr: [{ method: 'password', timestamp: iat }],
  session_id: 's1',
  is_anonymous: false,
};

describe('Hs256AppTokenSigner', () => {
  const clock = new FixedClock(NOW);
  const x = new Hs256AppTokenSigner('refxrefxrefxrefxrefx', SECRET_X, clock);

  it('signs GoTrue’s claims plus ref with HS256 and verifies its own token', async () => {
    const token = await x.sign(claims);
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    expect(decodeJwt(token)).toMatchObject({ ...claims, ref: 'refxrefxrefxrefxrefx' });
    expect(await x.verify(token)).toMatchObject({ ok: true, value: { sub: claims.sub, role: 'authenticated' } });
  });

  it('refuses another project’s token, even one re-labelled with this ref but signed with its own secret', async () => {
    const y = new Hs256AppTokenSigner('refyrefyrefyrefyrefy', SECRET_Y, clock);
    expect((await x.verify(await y.sign(claims))).ok).toBe(false);
    const relabelled = await new SignJWT({ ...claims, ref: 'refxrefxrefxrefxrefx' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET_Y));
    expect((await x.verify(relabelled)).ok).toBe(false);
  });

  it('refuses an expired token, the anon key (no audience, no sub) and a secret too short', async () => {
    const expired = await x.sign({ ...claims, iat: iat - 7200, exp: iat - 3600 });
    expect(await x.verify(expired)).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN', message: 'invalid JWT: token is expired' } });
    const anon = await new SignJWT({ role: 'anon', ref: 'refxrefxrefxrefxrefx', iss: 'kiln' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET_X));
    expect((await x.verify(anon)).ok).toBe(false);
    expect(() => new Hs256AppTokenSigner('r', 'short', clock)).toThrow(/at least 32/);
  });

  it('refuses a token with alg none', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ ...claims, ref: 'refxrefxrefxrefxrefx' })).toString('base64url');
    expect((await x.verify(`${header}.${body}.`)).ok).toBe(false);
  });
});
