import { describe, expect, it } from '@jest/globals';
import { SignJWT } from 'jose';
import { VerifiedTokens, authenticate } from './data-api-auth.js';

const ref = 'abcdefghij0123456789';
const secret = 'the-project-secret-of-at-least-32-bytes!';
const sign = (claims: Record<string, unknown>, key = secret, exp?: number) => {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
  if (exp !== undefined) jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(key));
};

describe('authenticate with VerifiedTokens', () => {
  it('answers a key it verified before from the cache, with the same claims', async () => {
    const tokens = new VerifiedTokens();
    const anon = await sign({ role: 'anon', ref, iss: 'kiln' });
    const first = await authenticate(anon, `Bearer ${anon}`, secret, ref, tokens);
    expect(first).toEqual({ ok: true, value: { role: 'anon', claims: { role: 'anon', ref, iss: 'kiln' } } });
    expect(tokens.find(anon, secret, ref)).toEqual({ role: 'anon', ref, iss: 'kiln' });
    expect(await authenticate(anon, undefined, secret, ref, tokens)).toEqual(first);
  });

  it('does not reuse a verification under another secret or ref, and keeps no failure', async () => {
    const tokens = new VerifiedTokens();
    const anon = await sign({ role: 'anon', ref });
    expect((await authenticate(anon, undefined, secret, ref, tokens)).ok).toBe(true);
    const other = await authenticate(anon, undefined, 'another-secret-of-another-project!!!', ref, tokens);
    expect(other).toMatchObject({ ok: false, error: { status: 401, code: 'PGRST301' } });
    expect(tokens.find(anon, secret, 'zzzzzzzzzzzzzzzzzzzz')).toBeNull();
    const forged = await sign({ role: 'anon', ref }, 'not-the-secret-not-the-secret-not!!');
    expect((await authenticate(forged, undefined, secret, ref, tokens)).ok).toBe(false);
    expect(tokens.find(forged, secret, ref)).toBeNull();
  });

  it('stops answering a cached token once it has expired (PGRST303)', async () => {
    let now = Date.now();
    const tokens = new VerifiedTokens(() => now);
    const exp = Math.floor(now / 1000) + 60;
    const user = await sign({ role: 'authenticated', sub: 'u1', ref }, secret, exp);
    const anon = await sign({ role: 'anon', ref });
    expect((await authenticate(anon, `Bearer ${user}`, secret, ref, tokens)).ok).toBe(true);
    now = (exp - 1) * 1000;
    expect(tokens.find(user, secret, ref)).not.toBeNull();
    now = exp * 1000;
    expect(tokens.find(user, secret, ref)).toBeNull();
    // jose itself decides after that (its clock is the real one: the token still verifies now).
    expect((await authenticate(anon, `Bearer ${user}`, secret, ref, tokens)).ok).toBe(true);
    const expired = await sign({ role: 'authenticated', sub: 'u1', ref }, secret, Math.floor(Date.now() / 1000) - 10);
    expect(await authenticate(anon, `Bearer ${expired}`, secret, ref, tokens)).toMatchObject({ ok: false, error: { code: 'PGRST303' } });
  });
});
