import { describe, expect, it } from '@jest/globals';
import { createAuthTestKit, signIn, signUpConfirmed } from '../testing/auth/auth-test-kit.js';
import { REFRESH_REUSE_INTERVAL_MS } from './auth.constants.js';

async function kitWithSession() {
  const kit = createAuthTestKit();
  await signUpConfirmed(kit, 'ana@example.com');
  const session = await signIn(kit, 'ana@example.com');
  return { kit, session };
}

async function refresh(kit: Awaited<ReturnType<typeof kitWithSession>>['kit'], refreshToken: string) {
  return kit.auth.refreshSession.execute({ refreshToken });
}

describe('RefreshSession', () => {
  it('returns a new refresh token and a new access token, and revokes the presented one', async () => {
    const { kit, session } = await kitWithSession();
    kit.clock.advance(60_000);
    const next = await refresh(kit, session.refreshToken);
    expect(next.ok).toBe(true);
    if (!next.ok) return;
    expect(next.value.refreshToken).toMatch(/^[0-9a-f]{64}$/);
    expect(next.value.refreshToken).not.toBe(session.refreshToken);
    expect(next.value.accessToken).not.toBe(session.accessToken);
    expect(next.value.sessionId).toBe(session.sessionId);
    expect(next.value.expiresAt).toBe(Math.floor(kit.clock.now().getTime() / 1000) + 3600);
    const tokens = kit.sessions.tokensOf(session.sessionId);
    expect(tokens.map((t) => [t.generation, t.revokedAt !== null])).toEqual([
      [0, true],
      [1, false],
    ]);
    // only digests are stored
    expect(JSON.stringify(tokens)).not.toContain(next.value.refreshToken);
  });

  it('answers the immediate parent of the active token with the active token, even much later', async () => {
    const { kit, session } = await kitWithSession();
    const second = await refresh(kit, session.refreshToken);
    kit.clock.advance(30 * 60_000);
    const again = await refresh(kit, session.refreshToken);
    expect(again.ok && second.ok && again.value.refreshToken).toBe(second.ok && second.value.refreshToken);
    expect(kit.sessions.tokensOf(session.sessionId)).toHaveLength(2);
  });

  it('accepts an older revoked token within 10 s, answering the active token', async () => {
    const { kit, session } = await kitWithSession();
    const second = await refresh(kit, session.refreshToken);
    const third = second.ok ? await refresh(kit, second.value.refreshToken) : second;
    kit.clock.advance(REFRESH_REUSE_INTERVAL_MS);
    const late = await refresh(kit, session.refreshToken);
    expect(late.ok && third.ok && late.value.refreshToken).toBe(third.ok && third.value.refreshToken);
  });

  it('after the 10 s window a reused token revokes the whole family: 400 refresh_token_already_used', async () => {
    const { kit, session } = await kitWithSession();
    const second = await refresh(kit, session.refreshToken);
    const third = second.ok ? await refresh(kit, second.value.refreshToken) : second;
    kit.clock.advance(REFRESH_REUSE_INTERVAL_MS + 1);
    expect(await refresh(kit, session.refreshToken)).toEqual({
      ok: false,
      error: { code: 'AUTH.REFRESH_TOKEN_ALREADY_USED', message: 'Invalid Refresh Token: Already Used' },
    });
    // the family is gone: even the active token and the access token stop working
    expect(third.ok && (await refresh(kit, third.value.refreshToken))).toMatchObject({ ok: false, error: { code: 'AUTH.REFRESH_TOKEN_NOT_FOUND' } });
    const verified = third.ok ? await kit.auth.verifier.verify(third.value.accessToken) : null;
    expect(verified).toMatchObject({ ok: false, error: { code: 'AUTH.SESSION_ENDED' } });
    expect(kit.sessions.all().find((s) => s.id === session.sessionId)?.endReason).toBe('refresh_token_reused');
  });

  it('refuses unknown and malformed tokens', async () => {
    const { kit } = await kitWithSession();
    for (const token of ['', 'abc', 'f'.repeat(64), 'F'.repeat(64)]) {
      expect(await refresh(kit, token)).toMatchObject({ ok: false, error: { code: 'AUTH.REFRESH_TOKEN_NOT_FOUND' } });
    }
  });

  it('concurrent refreshes with one token all succeed with the same new token', async () => {
    const kit = createAuthTestKit({ pause: () => Promise.resolve().then(() => undefined) });
    await signUpConfirmed(kit, 'ana@example.com');
    const session = await signIn(kit, 'ana@example.com');
    const results = await Promise.all(Array.from({ length: 5 }, () => refresh(kit, session.refreshToken)));
    const tokens = new Set(results.map((r) => (r.ok ? r.value.refreshToken : r.error.code)));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^[0-9a-f]{64}$/);
    expect(kit.sessions.tokensOf(session.sessionId)).toHaveLength(2);
  });

  it('refuses the tokens of a soft-deleted account', async () => {
    const { kit, session } = await kitWithSession();
    await kit.auth.softDeleteAccount.execute({ userId: session.user.id });
    expect(await refresh(kit, session.refreshToken)).toMatchObject({ ok: false, error: { code: 'AUTH.REFRESH_TOKEN_NOT_FOUND' } });
  });
});

describe('BuiltInAccessTokenVerifier', () => {
  it('answers the claims of a live session’s token', async () => {
    const { kit, session } = await kitWithSession();
    expect(await kit.auth.verifier.verify(session.accessToken)).toEqual({
      ok: true,
      value: {
        userId: session.user.id,
        email: 'ana@example.com',
        sessionId: session.sessionId,
        role: 'authenticated',
        aal: 'aal1',
        expiresAt: new Date(session.expiresAt * 1000),
        userMetadata: session.user.userMetadata,
      },
    });
  });

  it('refuses missing, malformed, unknown and expired tokens', async () => {
    const { kit, session } = await kitWithSession();
    expect(await kit.auth.verifier.verify('')).toMatchObject({ ok: false, error: { code: 'AUTH.MISSING_TOKEN' } });
    expect(await kit.auth.verifier.verify('not-a-jwt')).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN' } });
    expect(await kit.auth.verifier.verify('a.b.c')).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN' } });
    kit.clock.advance(3600_000);
    expect(await kit.auth.verifier.verify(session.accessToken)).toMatchObject({ ok: false, error: { code: 'AUTH.INVALID_TOKEN' } });
  });
});

describe('Logout', () => {
  async function threeSessions() {
    const { kit, session: a } = await kitWithSession();
    const b = await signIn(kit, 'ana@example.com');
    const c = await signIn(kit, 'ana@example.com');
    const live = async () =>
      Promise.all([a, b, c].map(async (s) => (await kit.auth.verifier.verify(s.accessToken)).ok));
    return { kit, a, b, c, live };
  }

  it('local ends only this session: its access token is refused at once, its refresh token too', async () => {
    const { kit, a, live } = await threeSessions();
    await kit.auth.logout.execute({ userId: a.user.id, sessionId: a.sessionId, scope: 'local' });
    expect(await live()).toEqual([false, true, true]);
    expect(await kit.auth.verifier.verify(a.accessToken)).toMatchObject({ ok: false, error: { code: 'AUTH.SESSION_ENDED' } });
    expect(await kit.auth.refreshSession.execute({ refreshToken: a.refreshToken })).toMatchObject({ ok: false, error: { code: 'AUTH.REFRESH_TOKEN_NOT_FOUND' } });
  });

  it('others ends every other session', async () => {
    const { kit, a, live } = await threeSessions();
    expect(await kit.auth.logout.execute({ userId: a.user.id, sessionId: a.sessionId, scope: 'others' })).toEqual({ ok: true, value: { ended: 3 } });
    expect(await live()).toEqual([true, false, false]);
  });

  it('global ends them all', async () => {
    const { kit, a, live } = await threeSessions();
    await kit.auth.logout.execute({ userId: a.user.id, sessionId: a.sessionId, scope: 'global' });
    expect(await live()).toEqual([false, false, false]);
  });
});

describe('GetUser', () => {
  it('answers the account, and user_not_found once deleted', async () => {
    const { kit, session } = await kitWithSession();
    expect((await kit.auth.getUser.execute({ userId: session.user.id })).ok).toBe(true);
    await kit.users.update(session.user.id, { deletedAt: kit.clock.now() });
    expect(await kit.auth.getUser.execute({ userId: session.user.id })).toMatchObject({ ok: false, error: { code: 'AUTH.USER_NOT_FOUND' } });
  });
});
