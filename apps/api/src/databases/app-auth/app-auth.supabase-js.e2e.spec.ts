import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { InMemoryAppAuthStores, InMemoryRateLimiter } from '@kiln/domain/testing';
import { PgAppAuthStores, SystemClock } from '@kiln/adapters';
import { decodeJwt, SignJWT } from 'jose';
import { type AppAuthServer, loopbackFetch, startAppAuthServer } from './testing/app-auth-harness.js';

const REF_X = 'aaaaaaaaaaaaaaaaaaaa';
const REF_Y = 'bbbbbbbbbbbbbbbbbbbb';
const REF_Z = 'cccccccccccccccccccc';
const secrets = new Map([REF_X, REF_Y, REF_Z].map((ref) => [ref, randomBytes(32).toString('hex')]));
const email = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;

describe('App sign-in through @supabase/supabase-js', () => {
  let app: AppAuthServer;
  beforeAll(async () => {
    app = await startAppAuthServer({ secrets, stores: new InMemoryAppAuthStores(), rateLimiter: new InMemoryRateLimiter(new SystemClock()) });
  });
  afterAll(async () => {
    await app.close();
  });

  it('signs up (confirmed at once, with a session), signs in, gets the user, refreshes and signs out', async () => {
    const supabase = await app.client(REF_X);
    const address = email('ana');
    const signedUp = await supabase.auth.signUp({ email: address, password: 'correct horse 1' });
    expect(signedUp.error).toBeNull();
    expect(signedUp.data.session?.access_token).toEqual(expect.any(String));
    expect(signedUp.data.user?.email_confirmed_at).toEqual(expect.any(String));

    const signedIn = await supabase.auth.signInWithPassword({ email: address, password: 'correct horse 1' });
    expect(signedIn.error).toBeNull();
    const session = signedIn.data.session!;
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({ role: 'authenticated', aud: 'authenticated', ref: REF_X, sub: signedIn.data.user!.id, email: address });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.iss).toBe(`http://${REF_X}.data.localhost:${app.port}/auth/v1`);

    const user = await supabase.auth.getUser(session.access_token);
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe(signedIn.data.user!.id);

    const refreshed = await supabase.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(session.refresh_token);

    expect((await supabase.auth.signOut()).error).toBeNull();
    const ended = refreshed.data.session!.access_token;
    const after = await supabase.auth.getUser(ended);
    expect(after.error).not.toBeNull();
    expect(after.data.user).toBeNull();
    // On the wire: the session of that token has ended.
    const raw = await loopbackFetch(`http://${REF_X}.data.localhost:${app.port}/auth/v1/user`, {
      headers: { apikey: await app.anonKey(REF_X), authorization: `Bearer ${ended}`, 'x-supabase-api-version': '2024-01-01' },
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({ code: 'session_not_found' });
  });

  it('answers a wrong password invalid_credentials, a weak one 422 weak_password, a taken address user_already_exists', async () => {
    const supabase = await app.client(REF_X);
    const address = email('bo');
    expect((await supabase.auth.signUp({ email: address, password: 'long enough 2' })).error).toBeNull();
    const wrong = await supabase.auth.signInWithPassword({ email: address, password: 'not the one 3' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    const weak = await supabase.auth.signUp({ email: email('weak'), password: 'short' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    const again = await supabase.auth.signUp({ email: address, password: 'long enough 2' });
    expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' });
  });

  it('keeps projects apart: X’s user cannot sign in to Y, X’s token is refused by Y, Y’s anon key is refused by X', async () => {
    const x = await app.client(REF_X);
    const y = await app.client(REF_Y);
    const address = email('cy');
    const inX = await x.auth.signUp({ email: address, password: 'project x pass' });
    expect(inX.error).toBeNull();
    const inY = await y.auth.signInWithPassword({ email: address, password: 'project x pass' });
    expect(inY.error).toMatchObject({ status: 400, code: 'invalid_credentials' });
    const foreign = await y.auth.getUser(inX.data.session!.access_token);
    expect(foreign.error).toMatchObject({ status: 403, code: 'bad_jwt' });
    // A token carrying Y's ref but signed with X's secret is refused too.
    const forged = await new SignJWT({ ...decodeJwt(inX.data.session!.access_token), ref: REF_Y })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(secrets.get(REF_X)!));
    expect((await y.auth.getUser(forged)).error).toMatchObject({ status: 403, code: 'bad_jwt' });
    const wrongKey = await app.client(REF_X, await app.anonKey(REF_Y));
    expect((await wrongKey.auth.signInWithPassword({ email: address, password: 'project x pass' })).error).toMatchObject({ status: 401 });
    // The same address signs up independently in Y.
    expect((await y.auth.signUp({ email: address, password: 'another pass y' })).error).toBeNull();
  });

  it('answers CORS preflights for any origin and exposes the version header', async () => {
    const res = await loopbackFetch(`http://${REF_X}.data.localhost:${app.port}/auth/v1/token?grant_type=password`, {
      method: 'OPTIONS',
      headers: { origin: 'https://some-app.example', 'access-control-request-method': 'POST', 'x-supabase-api-version': '2024-01-01' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-supabase-api-version');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Supabase-Api-Version');
    expect(res.headers.get('x-supabase-api-version')).toBe('2024-01-01');
  });

  it('refuses a body over the cap with 413', async () => {
    const res = await loopbackFetch(`http://${REF_X}.data.localhost:${app.port}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: await app.anonKey(REF_X), 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(70_000) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 'request_too_large', message: 'Request body is too large' });
  });

  it('rate limits sign-in attempts per client address with 429 over_request_rate_limit', async () => {
    const supabase = await app.client(REF_Z);
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 31; i += 1) {
      const { error } = await supabase.auth.signInWithPassword({ email: 'nobody@example.com', password: 'whatever 123' });
      codes.push(error?.code);
    }
    expect(codes.slice(0, 30).every((c) => c === 'invalid_credentials')).toBe(true);
    expect(codes[30]).toBe('over_request_rate_limit');
  });

  it('answers 503 with Retry-After when the project database cannot be reached', async () => {
    const unreachable = new PgAppAuthStores({ adminUrl: 'postgres://postgres@127.0.0.1:1/none' });
    const down = await startAppAuthServer({ secrets, stores: unreachable, rateLimiter: new InMemoryRateLimiter(new SystemClock()) });
    try {
      const res = await loopbackFetch(`http://${REF_X}.data.localhost:${down.port}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: await down.anonKey(REF_X), 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
        body: JSON.stringify({ email: 'ana@example.com', password: 'whatever 123' }),
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    } finally {
      await down.close();
      await unreachable.close();
    }
  });
});
