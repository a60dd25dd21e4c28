import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseEmail } from './email-address.js';
import { checkPassword } from './password-policy.js';
import { type BucketRule, type BucketState, takeToken } from './token-bucket.js';

describe('auth rules (properties)', () => {
  it('a password passes iff it has at least 8 code points', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (password) => {
        expect(checkPassword(password).ok).toBe([...password].length >= 8);
      }),
    );
  });

  it('email parsing is idempotent and case-insensitive', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (raw) => {
        const once = parseEmail(raw);
        if (!once.ok) return;
        expect(parseEmail(once.value)).toEqual(once);
        expect(parseEmail(raw.toUpperCase())).toEqual(once);
        expect(parseEmail(`  ${raw}\t`)).toEqual(once);
      }),
    );
  });

  it('a token bucket never allows more than burst + refill × elapsed', () => {
    const rule: BucketRule = { burst: 30, refillPerSecond: 0.1 };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 200 }), (gaps) => {
        let state: BucketState | null = null;
        let now = 0;
        let allowed = 0;
        for (const gap of gaps) {
          now += gap;
          const decision = takeToken(state, rule, now);
          state = decision.state;
          if (decision.allowed) allowed += 1;
          else expect(decision.retryAfterMs).toBeGreaterThan(0);
          expect(allowed).toBeLessThanOrEqual(rule.burst + (now / 1000) * rule.refillPerSecond);
        }
      }),
    );
  });

  it('a full bucket allows exactly the burst at one instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.double({ min: 0.01, max: 5, noNaN: true }), (burst, refillPerSecond) => {
        let state: BucketState | null = null;
        let allowed = 0;
        for (let i = 0; i < burst + 5; i += 1) {
          const d = takeToken(state, { burst, refillPerSecond }, 1_000);
          state = d.state;
          if (d.allowed) allowed += 1;
        }
        expect(allowed).toBe(burst);
      }),
    );
  });
});
