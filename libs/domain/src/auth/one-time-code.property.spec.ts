import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createAuthTestKit } from '../testing/auth/auth-test-kit.js';
import { SeededRandom } from '../testing/scripted-random.js';
import { CODE_MAX_FAILED_ATTEMPTS, CODE_TTL_MS } from './auth.constants.js';

/** A pause that yields to the scheduler only once `on` is set (set-up runs unpaused). */
function gate(s: fc.Scheduler) {
  const state = { on: false };
  const pause = () => (state.on ? s.schedule(Promise.resolve(), 'step') : Promise.resolve());
  return { state, pause };
}

const wrongFor = (code: string, n: number) => {
  const candidate = String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0');
  return candidate === code ? String((Number(code) + 500_000) % 1_000_000).padStart(6, '0') : candidate;
};

describe('one-time codes (properties)', () => {
  it('a code is accepted at most once, whatever the interleaving of concurrent verifications', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 6 }), async (s, rights, wrongs) => {
        const { state, pause } = gate(s);
        const kit = createAuthTestKit({ pause });
        await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' });
        const code = kit.mailer.lastCode('ana@example.com') ?? '';
        const tokens = [...Array.from({ length: rights }, () => code), ...Array.from({ length: wrongs }, (_, i) => wrongFor(code, i))];
        state.on = true;
        const results = await s.waitFor(
          Promise.all(tokens.map((token) => kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token }))),
        );
        state.on = false;
        const accepted = results.filter((r) => r.ok).length;
        expect(accepted).toBeLessThanOrEqual(1);
        // with fewer than five wrong tries in total the code cannot have died: someone got in
        if (wrongs < CODE_MAX_FAILED_ATTEMPTS) expect(accepted).toBe(1);
        expect(kit.sessions.all()).toHaveLength(accepted);
      }),
      { numRuns: 150 },
    );
  });

  type Step = { kind: 'right' | 'wrong'; waitMs: number };
  const step = fc.record({
    kind: fc.constantFrom<'right' | 'wrong'>('right', 'wrong', 'wrong'),
    waitMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 * 60_000 })),
  });

  it('matches the model: accepted iff right, unused, fewer than 5 wrong tries so far, and younger than 10 minutes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps: Step[]) => {
        const kit = createAuthTestKit();
        await kit.auth.signUp.execute({ email: 'ana@example.com', password: 'correct horse battery' });
        const code = kit.mailer.lastCode('ana@example.com') ?? '';
        const model = { age: 0, failed: 0, used: false };
        for (const [i, { kind, waitMs }] of steps.entries()) {
          kit.clock.advance(waitMs);
          model.age += waitMs;
          const live = !model.used && model.failed < CODE_MAX_FAILED_ATTEMPTS && model.age < CODE_TTL_MS;
          const result = await kit.auth.verifyOtp.execute({ type: 'signup', email: 'ana@example.com', token: kind === 'right' ? code : wrongFor(code, i) });
          expect(result.ok).toBe(live && kind === 'right');
          if (!result.ok) expect(result.error.code).toBe('AUTH.OTP_EXPIRED');
          if (live && kind === 'right') model.used = true;
          if (live && kind === 'wrong') model.failed += 1;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('codes are six digits from the injected source, stored only as digests; decoys mail nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const kit = createAuthTestKit({ random: new SeededRandom(seed) });
        for (let i = 0; i < 3; i += 1) {
          await kit.auth.recover.execute({ email: 'ana@example.com' }); // a decoy: nothing mailed
          await kit.auth.signUp.execute({ email: `user${i}@example.com`, password: 'correct horse battery' });
          const code = kit.mailer.lastCode(`user${i}@example.com`) ?? '';
          expect(code).toMatch(/^\d{6}$/);
          expect(JSON.stringify(kit.codes.all())).not.toContain(`"${code}"`);
        }
        expect(kit.mailer.sent).toHaveLength(3);
      }),
      { numRuns: 50 },
    );
  });
});
