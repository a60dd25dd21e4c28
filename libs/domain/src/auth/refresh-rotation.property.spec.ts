import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createAuthTestKit, signIn, signUpConfirmed } from '../testing/auth/auth-test-kit.js';
import { REFRESH_REUSE_INTERVAL_MS } from './auth.constants.js';

/**
 * A model of GoTrue's refresh-token rotation. The client holds every token it was ever given
 * (index = generation) and presents any of them after some time; the model predicts the answer.
 */
interface Model {
  tokens: string[]; // by generation, as handed out
  revokedAt: (number | null)[]; // ms, by generation
  active: number;
  ended: boolean;
  now: number;
}

type Op = { kind: 'wait'; ms: number } | { kind: 'present'; pick: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant<'wait'>('wait'), ms: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 9_000, max: 11_000 }), fc.integer({ min: 0, max: 120_000 })) }),
  fc.record({ kind: fc.constant<'present'>('present'), pick: fc.nat() }),
  fc.record({ kind: fc.constant<'present'>('present'), pick: fc.constant(-1) }), // the newest token
);

describe('refresh-token rotation (model-based)', () => {
  it('follows the model for any sequence of presentations and waits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const kit = createAuthTestKit();
        await signUpConfirmed(kit, 'ana@example.com');
        const start = await signIn(kit, 'ana@example.com');
        const m: Model = { tokens: [start.refreshToken], revokedAt: [null], active: 0, ended: false, now: kit.clock.now().getTime() };

        for (const o of ops) {
          if (o.kind === 'wait') {
            kit.clock.advance(o.ms);
            m.now += o.ms;
            continue;
          }
          const generation = o.pick < 0 ? m.tokens.length - 1 : o.pick % m.tokens.length;
          const result = await kit.auth.refreshSession.execute({ refreshToken: m.tokens[generation] ?? '' });
          const revokedAt = m.revokedAt[generation] ?? null;

          if (m.ended) {
            expect(result).toMatchObject({ ok: false, error: { code: 'AUTH.REFRESH_TOKEN_NOT_FOUND' } });
          } else if (generation === m.active) {
            expect(result.ok).toBe(true);
            if (!result.ok) return;
            expect(m.tokens).not.toContain(result.value.refreshToken);
            m.revokedAt[generation] = m.now;
            m.tokens.push(result.value.refreshToken);
            m.revokedAt.push(null);
            m.active = generation + 1;
          } else if (generation === m.active - 1 || (revokedAt !== null && m.now - revokedAt <= REFRESH_REUSE_INTERVAL_MS)) {
            expect(result.ok && result.value.refreshToken).toBe(m.tokens[m.active]);
          } else {
            expect(result).toMatchObject({ ok: false, error: { code: 'AUTH.REFRESH_TOKEN_ALREADY_USED' } });
            m.ended = true;
          }
          // invariant: at most one active token, and the session is live iff the model says so
          const stored = kit.sessions.tokensOf(start.sessionId);
          expect(stored.filter((t) => t.revokedAt === null)).toHaveLength(m.ended ? 0 : 1);
          expect(stored).toHaveLength(m.tokens.length);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('concurrent refreshes with one token, in any interleaving, all get the same single successor', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 6 }), async (s, n) => {
        const state = { on: false };
        const kit = createAuthTestKit({ pause: () => (state.on ? s.schedule(Promise.resolve(), 'step') : Promise.resolve()) });
        await signUpConfirmed(kit, 'ana@example.com');
        const session = await signIn(kit, 'ana@example.com');
        state.on = true;
        const results = await s.waitFor(Promise.all(Array.from({ length: n }, () => kit.auth.refreshSession.execute({ refreshToken: session.refreshToken }))));
        state.on = false;
        const tokens = new Set(results.map((r) => (r.ok ? r.value.refreshToken : `error:${r.error.code}`)));
        expect(tokens.size).toBe(1);
        expect([...tokens][0]).toMatch(/^[0-9a-f]{64}$/);
        expect(kit.sessions.tokensOf(session.sessionId)).toHaveLength(2);
      }),
      { numRuns: 150 },
    );
  });
});
