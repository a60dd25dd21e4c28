import { referralGrantKeys } from '../credits/ledger-keys.js';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type TestKit, createTestKit, signUp } from '../testing/test-kit.js';

const USERS = ['u0', 'u1', 'u2', 'u3'] as const;
type User = (typeof USERS)[number];

/** An attempt: `referee` applies the code of `referrer`, or a code nobody holds / a malformed one. */
type Attempt = { referee: User; code: { kind: 'of'; user: User } | { kind: 'unknown' } | { kind: 'malformed' } };

const attempt: fc.Arbitrary<Attempt> = fc.record({
  referee: fc.constantFrom(...USERS),
  code: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...USERS).map((user) => ({ kind: 'of' as const, user })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'unknown' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'malformed' as const }) },
  ),
});

async function setUp(kit: TestKit) {
  const codes = new Map<User, string>();
  for (const u of USERS) codes.set(u, (await signUp(kit, u)).profile.referralCode);
  const unknown = ['ZZZZZZ', 'YYYYYY', 'XXXXXX', 'WWWWWW', 'VVVVVV'].find((c) => ![...codes.values()].includes(c))!;
  const codeFor = (a: Attempt): string =>
    a.code.kind === 'of' ? codes.get(a.code.user)! : a.code.kind === 'unknown' ? unknown : 'NOPE';
  return codeFor;
}

/** The invariants of the referral ledger, checked over the whole kit. */
async function checkInvariants(kit: TestKit, { noMutualReferrals }: { noMutualReferrals: boolean }) {
  const profiles = kit.profiles.all();
  if (noMutualReferrals) {
    for (const p of profiles) {
      const referrer = profiles.find((q) => q.id === p.referredBy);
      expect(referrer?.referredBy ?? null).not.toBe(p.id);
    }
  }
  const referred = profiles.filter((p) => p.referredBy !== null);
  let totalReferralGranted = 0;
  for (const p of profiles) {
    const entries = await kit.ledger.entries(p.id);
    const welcome = entries.filter((e) => e.kind === 'grant' && e.key === referralGrantKeys(p.id).referee);
    // The referral-bonus "welcome" grant happens at most once, and exactly when there is a referrer.
    expect(welcome).toHaveLength(p.referredBy === null ? 0 : 1);
    // A referrer is paid once per friend, and only for friends who name them.
    const friendKeys = entries.flatMap((e) => (e.kind === 'grant' && e.key.startsWith('referral:friend:') ? [e.key] : []));
    const friends = profiles.filter((f) => f.referredBy === p.id).map((f) => referralGrantKeys(f.id).referrer);
    expect([...friendKeys].sort()).toEqual([...friends].sort());
    const summary = await kit.ledger.summary(p.id);
    expect(summary.balances.referral).toBe(summary.referralGranted);
    totalReferralGranted += summary.referralGranted;
    expect(p.referredBy).not.toBe(p.id);
  }
  expect(totalReferralGranted).toBe(50 * referred.length);
}

describe('ApplyReferral — properties over 4 users', () => {
  it('any sequence of attempts: each user is welcomed at most once and 50 credits are granted per referred user; outcomes follow the rules', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(attempt, { maxLength: 16 }), async (attempts) => {
        const kit = createTestKit();
        const codeFor = await setUp(kit);
        const referredBy = new Map<User, User>();

        for (const a of attempts) {
          const r = await kit.applyReferral.execute({ refereeId: a.referee, code: codeFor(a) });
          // The model: which outcome the rules give, in the use case's order of checks.
          let expected: string;
          if (a.code.kind === 'malformed') expected = 'REFERRALS.INVALID_CODE';
          else if (a.code.kind === 'unknown') expected = 'REFERRALS.UNKNOWN_CODE';
          else if (a.code.user === a.referee) expected = 'REFERRALS.SELF_REFERRAL';
          else if (referredBy.get(a.code.user) === a.referee) expected = 'REFERRALS.CIRCULAR';
          else if (referredBy.has(a.referee)) expected = 'REFERRALS.ALREADY_REFERRED';
          else expected = 'ok';

          expect(r.ok ? 'ok' : r.error.code).toBe(expected);
          if (r.ok && a.code.kind === 'of') {
            referredBy.set(a.referee, a.code.user);
            expect(r.value).toEqual({ referrerId: a.code.user, bonus: 25 });
          }
        }

        for (const u of USERS) expect((await kit.profiles.findById(u))?.referredBy ?? null).toBe(referredBy.get(u) ?? null);
        await checkInvariants(kit, { noMutualReferrals: true });
      }),
      { numRuns: 200 },
    );
  });

  it('any set of simultaneous attempts, in any interleaving: the same invariants hold', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(attempt, { minLength: 1, maxLength: 8 }), async (s, attempts) => {
        const gate = { on: false };
        const kit = createTestKit({ pause: () => (gate.on ? s.schedule(Promise.resolve(), 'step') : Promise.resolve()) });
        const codeFor = await setUp(kit);

        gate.on = true;
        const results = await s.waitFor(Promise.all(attempts.map((a) => kit.applyReferral.execute({ refereeId: a.referee, code: codeFor(a) }))));
        gate.on = false;

        await checkInvariants(kit, { noMutualReferrals: true });
        // Every success names the referrer that was recorded for its referee.
        for (const [i, r] of results.entries()) {
          if (r.ok) expect((await kit.profiles.findById(attempts[i]!.referee))?.referredBy).toBe(r.value.referrerId);
        }
      }),
      { numRuns: 200 },
    );
  });
});
