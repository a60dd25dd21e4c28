import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { type AuthUseCases, type EmailAddress, authSettings, createAuthUser, createAuthUseCases } from '@kiln/domain';
import { sessionStoreContract } from '@kiln/domain/contracts';
import { FakeAccessTokenSigner, FakePasswordHasher, FixedClock, InMemoryRateLimiter, RecordingMailer } from '@kiln/domain/testing';
import { Sha256SecretHasher } from '../../auth/sha256-secret-hasher.adapter.js';
import { CryptoRandom } from '../../system/crypto-random.adapter.js';
import { UuidIds } from '../../system/uuid-ids.adapter.js';
import { PgUnitOfWork } from '../pg-unit-of-work.js';
import { type TestDatabase, createTestDatabase } from '../testing/test-database.js';
import { PgAuthUserRepository } from './pg-auth-user-repository.adapter.js';
import { PgOneTimeCodeStore } from './pg-one-time-code-store.adapter.js';
import { PgSessionStore } from './pg-session-store.adapter.js';

jest.setTimeout(60_000);

/** An account for sessions to point at (auth_sessions.user_id references auth_users). */
function accounts(tx: PgUnitOfWork) {
  const users = new PgAuthUserRepository(tx);
  return async (): Promise<string> => {
    const id = randomUUID();
    const email = `owner-${id}@example.com` as EmailAddress;
    await users.insert(createAuthUser({ id, identityId: randomUUID(), email, passwordHash: null, metadata: {} }, new Date(Date.UTC(2026, 0, 1))));
    return id;
  };
}

sessionStoreContract('postgres', async () => {
  const db = await createTestDatabase();
  const tx = new PgUnitOfWork(db.dataSource);
  return { sessions: new PgSessionStore(tx), newId: () => randomUUID(), newUserId: accounts(tx), close: () => db.drop() };
});

/**
 * The refresh rules of GOTRUE.md end to end over the Pg stores: the domain's use cases (real
 * SHA-256 token chain, decideRotation) with PgAuthUserRepository, PgOneTimeCodeStore and
 * PgSessionStore — only the signer, password hasher, mailer and clock are test doubles.
 */
describe('PgSessionStore on PostgreSQL: concurrent refreshes', () => {
  let db: TestDatabase;
  let tx: PgUnitOfWork;
  let sessions: PgSessionStore;
  let clock: FixedClock;
  let mailer: RecordingMailer;
  let auth: AuthUseCases;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 20 });
    tx = new PgUnitOfWork(db.dataSource);
    sessions = new PgSessionStore(tx);
    clock = new FixedClock(new Date(Date.UTC(2026, 0, 15, 10, 0, 0)));
    mailer = new RecordingMailer();
    const ports = {
      users: new PgAuthUserRepository(tx),
      codes: new PgOneTimeCodeStore(tx),
      sessions,
      passwords: new FakePasswordHasher(),
      hasher: new Sha256SecretHasher(),
      signer: new FakeAccessTokenSigner(clock),
      rateLimiter: new InMemoryRateLimiter(clock),
      mailer,
      clock,
      random: new CryptoRandom(),
      ids: new UuidIds(),
    };
    auth = createAuthUseCases(ports, authSettings());
  });
  afterAll(async () => {
    await db.drop();
  });

  /** A confirmed account's session, as verifying the sign-up code starts it. */
  async function signedIn(): Promise<{ refreshToken: string; sessionId: string }> {
    const email = `refresh-${randomUUID()}@example.com`;
    const signedUp = await auth.signUp.execute({ email, password: 'correct horse battery' });
    if (!signedUp.ok) throw new Error(signedUp.error.message);
    const verified = await auth.verifyOtp.execute({ type: 'signup', email, token: mailer.lastCode(email) ?? '' });
    if (!verified.ok) throw new Error(verified.error.message);
    return { refreshToken: verified.value.refreshToken, sessionId: verified.value.sessionId };
  }
  const tokensOf = async (sessionId: string) =>
    (await db.dataSource.query('SELECT generation, revoked_at FROM auth_refresh_tokens WHERE session_id = $1 ORDER BY generation', [sessionId])) as {
      generation: number;
      revoked_at: Date | null;
    }[];
  const refreshAll = (token: string, n: number) => Promise.all(Array.from({ length: n }, () => auth.refreshSession.execute({ refreshToken: token })));

  it('20 concurrent refreshes with one token: one new token, every answer carries it', async () => {
    for (let round = 0; round < 3; round++) {
      const { refreshToken, sessionId } = await signedIn();
      const results = await refreshAll(refreshToken, 20);
      expect(results.every((r) => r.ok)).toBe(true);
      const answered = new Set(results.map((r) => (r.ok ? r.value.refreshToken : null)));
      expect(answered.size).toBe(1);
      const [next] = [...answered];
      expect(next).not.toBe(refreshToken);
      const tokens = await tokensOf(sessionId);
      expect(tokens.map((t) => [t.generation, t.revoked_at === null])).toEqual([
        [0, false],
        [1, true],
      ]);
      // The new token rotates in its turn, concurrently too.
      const again = await refreshAll(next ?? '', 20);
      expect(new Set(again.map((r) => (r.ok ? r.value.refreshToken : r.error.code))).size).toBe(1);
      expect((await tokensOf(sessionId)).filter((t) => t.revoked_at === null).map((t) => t.generation)).toEqual([2]);
    }
  });

  it('within the reuse window, concurrent refreshes with the active token and older ones all get the one new token', async () => {
    const { refreshToken: first, sessionId } = await signedIn();
    const r1 = await auth.refreshSession.execute({ refreshToken: first });
    const second = r1.ok ? r1.value.refreshToken : '';
    const r2 = await auth.refreshSession.execute({ refreshToken: second });
    const third = r2.ok ? r2.value.refreshToken : '';
    clock.advance(5_000); // inside the 10 s window: the grandparent `first` is still honoured
    const presented = [...Array.from({ length: 10 }, () => third), ...Array.from({ length: 5 }, () => second), ...Array.from({ length: 5 }, () => first)];
    const results = await Promise.all(presented.map((refreshToken) => auth.refreshSession.execute({ refreshToken })));
    expect(results.every((r) => r.ok)).toBe(true);
    const answers = results.map((r) => (r.ok ? r.value.refreshToken : ''));
    // One rotation (of the active token `third`); a refresh with an older token served before it
    // gets `third` (then the active one), after it the new token.
    const fourth = answers[0];
    expect(fourth).not.toBe(third);
    expect(answers.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => fourth));
    for (const answer of answers.slice(10)) expect([third, fourth]).toContain(answer);
    const tokens = await tokensOf(sessionId);
    expect(tokens.map((t) => t.generation)).toEqual([0, 1, 2, 3]);
    expect(tokens.filter((t) => t.revoked_at === null).map((t) => t.generation)).toEqual([3]);
  });

  it('outside the reuse window, 20 concurrent refreshes with an old token end the session once; nothing refreshes it after', async () => {
    const { refreshToken: first, sessionId } = await signedIn();
    const r1 = await auth.refreshSession.execute({ refreshToken: first });
    const r2 = await auth.refreshSession.execute({ refreshToken: r1.ok ? r1.value.refreshToken : '' });
    const active = r2.ok ? r2.value.refreshToken : '';
    clock.advance(11_000);
    const results = await refreshAll(first, 20);
    const codes = results.map((r) => (r.ok ? 'ok' : r.error.code));
    // The first to take the lock revokes the family; the others find the session ended.
    expect(codes.filter((c) => c === 'AUTH.REFRESH_TOKEN_ALREADY_USED')).toHaveLength(1);
    expect(codes.filter((c) => c === 'ok')).toHaveLength(0);
    const session = await sessions.findById(sessionId);
    expect(session?.endReason).toBe('refresh_token_reused');
    expect((await tokensOf(sessionId)).every((t) => t.revoked_at !== null)).toBe(true);
    expect((await auth.refreshSession.execute({ refreshToken: active })).ok).toBe(false);
  });

  it('a logout racing 20 refreshes leaves no active token behind', async () => {
    for (let round = 0; round < 3; round++) {
      const { refreshToken, sessionId } = await signedIn();
      const refreshes = refreshAll(refreshToken, 20);
      const ended = sessions.end(sessionId, clock.now(), 'logout');
      await Promise.all([refreshes, ended]);
      expect(await ended).toBe(true);
      expect((await tokensOf(sessionId)).filter((t) => t.revoked_at === null)).toEqual([]);
    }
  });

  /**
   * Holds a refresh's transaction open (the session row locked, the new token uncommitted), runs
   * `waiter` until PostgreSQL reports it blocked by that transaction, then commits the refresh.
   */
  async function whileRefreshHoldsTheLock<T>(refreshToken: string, waiter: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let locked!: (pid: number) => void;
    const holderPid = new Promise<number>((resolve) => (locked = resolve));
    const holder = tx.run(async () => {
      expect((await auth.refreshSession.execute({ refreshToken })).ok).toBe(true);
      const [{ pid }] = (await tx.manager().query('SELECT pg_backend_pid() AS pid')) as { pid: number }[];
      locked(pid);
      await gate;
    });
    const pid = await holderPid;
    const waiting = waiter();
    let blocked = false;
    for (let i = 0; i < 200 && !blocked; i++) {
      const [{ n }] = (await db.dataSource.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])) as { n: number }[];
      blocked = n > 0;
      if (!blocked) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release();
    await holder;
    expect(blocked).toBe(true);
    return waiting;
  }

  it('a logout that waited for a refresh revokes the token that refresh created', async () => {
    const { refreshToken, sessionId } = await signedIn();
    expect(await whileRefreshHoldsTheLock(refreshToken, () => sessions.end(sessionId, clock.now(), 'logout'))).toBe(true);
    expect((await tokensOf(sessionId)).map((t) => [t.generation, t.revoked_at === null])).toEqual([
      [0, false],
      [1, false],
    ]);
  });

  it('ending all of a user’s sessions waits for a refresh and revokes the token it created', async () => {
    const { refreshToken, sessionId } = await signedIn();
    const [{ user_id: userId }] = (await db.dataSource.query('SELECT user_id FROM auth_sessions WHERE id = $1', [sessionId])) as { user_id: string }[];
    expect(await whileRefreshHoldsTheLock(refreshToken, () => sessions.endAllForUser(userId, clock.now(), 'password_changed'))).toBe(1);
    expect((await tokensOf(sessionId)).filter((t) => t.revoked_at === null)).toEqual([]);
  });

  it('joins the caller’s transaction: a rollback undoes a rotation', async () => {
    const { refreshToken, sessionId } = await signedIn();
    await expect(
      tx.run(async () => {
        expect((await auth.refreshSession.execute({ refreshToken })).ok).toBe(true);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await tokensOf(sessionId)).toEqual([{ generation: 0, revoked_at: null }]);
  });
});
