import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AuthSession, type RefreshTokenRecord, type RotationDecision, type RotationView, decideRotation } from '../../auth/auth-session.js';
import type { SessionStore } from '../../auth/session-store.port.js';

export interface SessionStoreHarness {
  readonly sessions: SessionStore;
  /** A fresh id (a UUID for adapters with uuid columns). */
  newId(): string;
  /** The id of an existing account sessions may point at. */
  newUserId(): Promise<string>;
  close?(): Promise<void>;
}

const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);

/** The SessionStore contract. Call it from each adapter's spec. */
export function sessionStoreContract(name: string, makeHarness: () => Promise<SessionStoreHarness>): void {
  describe(`SessionStore contract: ${name}`, () => {
    let h: SessionStoreHarness;
    let n = 0;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    /** Unique 64-hex digests (what the store keys tokens by). */
    const digest = () => `${(n += 1).toString(16).padStart(8, '0')}${h.newId().replace(/[^0-9a-f]/g, '')}`.padEnd(64, 'a').slice(0, 64);

    const start = async (userId?: string): Promise<{ session: AuthSession; first: RefreshTokenRecord }> => {
      const session: AuthSession = {
        id: h.newId(),
        userId: userId ?? (await h.newUserId()),
        createdAt: at(0),
        refreshedAt: null,
        endedAt: null,
        endReason: null,
        aal: 'aal1',
        amr: [{ method: 'password', timestamp: T0 / 1000 }],
        tokenSecret: 'secret',
      };
      const first: RefreshTokenRecord = { tokenHash: digest(), sessionId: session.id, generation: 0, createdAt: at(0), revokedAt: null };
      await h.sessions.create(session, first);
      return { session, first };
    };
    const policy = (seconds: number, next: string) => (view: RotationView): RotationDecision =>
      decideRotation(view, { now: at(seconds), successorHash: () => next });

    it('stores a session and finds it by id', async () => {
      const { session } = await start();
      expect(JSON.parse(JSON.stringify(await h.sessions.findById(session.id)))).toEqual(JSON.parse(JSON.stringify(session)));
      expect(await h.sessions.findById(h.newId())).toBeNull();
    });

    it('answers unknown_token for a digest it does not hold', async () => {
      expect(await h.sessions.rotate(digest(), () => ({ kind: 'refuse' }))).toEqual({ kind: 'unknown_token' });
    });

    it('rotates the active token: the next one becomes active, the session is marked refreshed', async () => {
      const { session, first } = await start();
      const second = digest();
      const result = await h.sessions.rotate(first.tokenHash, policy(5, second));
      expect(result.kind === 'decided' && result.decision.kind).toBe('rotate');
      expect(result.kind === 'decided' && result.view.active?.tokenHash).toBe(first.tokenHash);
      const again = await h.sessions.rotate(second, policy(6, digest()));
      expect(again.kind === 'decided' && again.view.presented.generation).toBe(1);
      expect(again.kind === 'decided' && again.view.presented.revokedAt).toBeNull();
      expect((await h.sessions.findById(session.id))?.refreshedAt?.toISOString()).toBe(at(6).toISOString());
    });

    it('shows a revoked parent its active child (reuse) and changes no token', async () => {
      const { first } = await start();
      const second = digest();
      await h.sessions.rotate(first.tokenHash, policy(5, second));
      const reuse = await h.sessions.rotate(first.tokenHash, policy(100, digest()));
      expect(reuse.kind === 'decided' && reuse.decision.kind).toBe('reuse');
      expect(reuse.kind === 'decided' && reuse.view.active?.tokenHash).toBe(second);
      expect(reuse.kind === 'decided' && reuse.view.presented.revokedAt?.toISOString()).toBe(at(5).toISOString());
    });

    it('ends the session and revokes every token on a late reuse', async () => {
      const { session, first } = await start();
      const second = digest();
      const third = digest();
      await h.sessions.rotate(first.tokenHash, policy(1, second));
      await h.sessions.rotate(second, policy(2, third));
      const late = await h.sessions.rotate(first.tokenHash, policy(30, digest()));
      expect(late.kind === 'decided' && late.decision.kind).toBe('revoke_family');
      const ended = await h.sessions.findById(session.id);
      expect(ended?.endedAt?.toISOString()).toBe(at(30).toISOString());
      expect(ended?.endReason).toBe('refresh_token_reused');
      const after = await h.sessions.rotate(third, policy(31, digest()));
      expect(after.kind === 'decided' && after.decision.kind).toBe('refuse');
      expect(after.kind === 'decided' && after.view.active).toBeNull();
      expect(after.kind === 'decided' && after.view.presented.revokedAt?.toISOString()).toBe(at(30).toISOString());
    });

    it('serialises concurrent refreshes with one token: one rotation, the rest see its result', async () => {
      const { first } = await start();
      const results = await Promise.all(Array.from({ length: 6 }, () => h.sessions.rotate(first.tokenHash, policy(5, digest()))));
      const kinds = results.map((r) => (r.kind === 'decided' ? r.decision.kind : r.kind));
      expect(kinds.filter((k) => k === 'rotate')).toHaveLength(1);
      expect(kinds.filter((k) => k === 'reuse')).toHaveLength(5);
      const rotated = results.find((r) => r.kind === 'decided' && r.decision.kind === 'rotate');
      const next = rotated?.kind === 'decided' && rotated.decision.kind === 'rotate' ? rotated.decision.next.tokenHash : null;
      for (const r of results) if (r.kind === 'decided' && r.decision.kind === 'reuse') expect(r.decision.active.tokenHash).toBe(next);
    });

    it('ends one session: its tokens are refused; ending again answers false', async () => {
      const { session, first } = await start();
      expect(await h.sessions.end(session.id, at(3), 'logout')).toBe(true);
      expect(await h.sessions.end(session.id, at(4), 'logout')).toBe(false);
      expect(await h.sessions.end(h.newId(), at(4), 'logout')).toBe(false);
      const ended = await h.sessions.findById(session.id);
      expect(ended?.endReason).toBe('logout');
      const after = await h.sessions.rotate(first.tokenHash, policy(5, digest()));
      expect(after.kind === 'decided' && after.decision.kind).toBe('refuse');
    });

    it("ends all of a user's sessions but the excepted one, and no one else's", async () => {
      const userId = await h.newUserId();
      const a = await start(userId);
      const b = await start(userId);
      const c = await start(userId);
      const other = await start();
      expect(await h.sessions.endAllForUser(userId, at(9), 'password_changed', { exceptSessionId: b.session.id })).toBe(2);
      expect((await h.sessions.findById(a.session.id))?.endReason).toBe('password_changed');
      expect((await h.sessions.findById(b.session.id))?.endedAt).toBeNull();
      expect((await h.sessions.findById(c.session.id))?.endedAt).not.toBeNull();
      expect((await h.sessions.findById(other.session.id))?.endedAt).toBeNull();
      expect(await h.sessions.endAllForUser(userId, at(10), 'logout')).toBe(1);
    });
  });
}
