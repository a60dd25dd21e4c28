import { describe, expect, it } from '@jest/globals';
import { addMonthsClamped } from '../credits/allowance-cycle.js';
import { DAY_MS } from '../testing/fixed-clock.js';
import { ScriptedRandom } from '../testing/scripted-random.js';
import { createTestKit, signUp } from '../testing/test-kit.js';

const T0 = new Date('2026-01-15T10:00:00Z');
const CODE = /^[A-HJ-NP-Z2-9]{6}$/;

function freshKit() {
  const kit = createTestKit();
  kit.clock.set(T0);
  return kit;
}

describe('EnsureProfileOnSignIn — first sign-in (SPEC §4 "Profile creation")', () => {
  it('creates a profile with every SPEC default', async () => {
    const kit = freshKit();
    const r = await kit.ensureProfileOnSignIn.execute({ userId: 'u1', email: 'ana@example.com', metadata: { full_name: '  Ana Lima  ' } });

    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.created).toBe(true);
    expect(r.value.referral).toBeNull();
    const p = r.value.profile;
    expect(p).toMatchObject({
      id: 'u1',
      name: 'Ana Lima',
      email: 'ana@example.com',
      dateOfBirth: null,
      organization: null,
      role: 'other',
      subscriptionPlan: 'free',
      subscriptionId: null,
      subscriptionStatus: null,
      billingInterval: null,
      customerId: null,
      preferredCurrency: 'USD',
      credits: 0,
      referralCredits: 0,
      extraCredits: 0,
      referredBy: null,
      createdAt: T0,
      updatedAt: T0,
      lastSignInAt: T0,
      billingCycleStartDate: null,
      billingCycleEndDate: null,
      firstPurchasedDate: null,
      subscriptionEndDate: null,
      proMultiplier: 1,
    });
    expect(p.referralCode).toMatch(CODE);
    expect(await kit.profiles.findById('u1')).toEqual(p);
  });

  it('grants the first allowance cycle: 5 monthly credits from sign-up', async () => {
    const kit = freshKit();
    await signUp(kit, 'u1');
    const summary = await kit.ledger.summary('u1');
    expect(summary.balances).toEqual({ monthly: 5, referral: 0, addon: 0 });
    expect(summary.cycle).toEqual({ start: T0, end: addMonthsClamped(T0, 1), allowance: 5 });
    expect(await kit.ledger.entries('u1')).toHaveLength(1);
  });

  it.each([
    ['no metadata', null],
    ['undefined metadata', undefined],
    ['metadata without full_name', {}],
    ['a numeric full_name', { full_name: 42 }],
    ['a null full_name', { full_name: null }],
    ['an object full_name', { full_name: { first: 'Ana' } }],
    ['a blank full_name', { full_name: '   ' }],
  ])('names the profile "" with %s', async (_label, metadata) => {
    const kit = freshKit();
    const r = await kit.ensureProfileOnSignIn.execute({ userId: 'u1', email: 'u1@example.com', metadata });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.profile.name).toBe('');
  });

  it('gives different users different referral codes', async () => {
    const kit = freshKit();
    const codes = new Set<string>();
    for (let i = 0; i < 20; i += 1) codes.add((await signUp(kit, `u${i}`)).profile.referralCode);
    expect(codes.size).toBe(20);
  });

  it('fails with REFERRALS.CODE_GENERATION_FAILED and creates nothing when no code is free', async () => {
    // Every draw gives AAAAAA: the first user takes it, the second can never get one.
    const kit = createTestKit({ random: new ScriptedRandom([0]) });
    expect((await signUp(kit, 'first')).profile.referralCode).toBe('AAAAAA');
    const r = await kit.ensureProfileOnSignIn.execute({ userId: 'second', email: 'second@example.com' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('REFERRALS.CODE_GENERATION_FAILED');
      expect(r.error.message).toBe('Unable to generate unique referral code');
    }
    expect(await kit.profiles.findById('second')).toBeNull();
    expect(await kit.ledger.entries('second')).toHaveLength(0);
  });
});

describe('EnsureProfileOnSignIn — later sign-ins', () => {
  it('does not create again; updates lastSignInAt and keeps everything else', async () => {
    const kit = freshKit();
    const first = await signUp(kit, 'u1', { fullName: 'Ana' });
    const entries = await kit.ledger.entries('u1');
    kit.clock.advance(3 * DAY_MS);
    const later = kit.clock.now();

    const r = await kit.ensureProfileOnSignIn.execute({ userId: 'u1', email: 'u1@example.com', metadata: { full_name: 'Someone Else' } });

    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.created).toBe(false);
    expect(r.value.profile).toEqual({ ...first.profile, lastSignInAt: later, updatedAt: later });
    expect(kit.profiles.all()).toHaveLength(1);
    expect(await kit.ledger.entries('u1')).toEqual(entries);
  });

  it('grants the next cycle when signing in after the first one ended', async () => {
    const kit = freshKit();
    await signUp(kit, 'u1');
    await kit.consumePromptCredit.execute({ userId: 'u1', idempotencyKey: 'm1' });
    kit.clock.set(addMonthsClamped(T0, 1));
    await signUp(kit, 'u1');
    const summary = await kit.ledger.summary('u1');
    expect(summary.balances.monthly).toBe(5);
    expect(summary.cycle?.start).toEqual(addMonthsClamped(T0, 1));
  });
});

describe('EnsureProfileOnSignIn — a stored referral code', () => {
  it("of another user: applies the referral and both sides get 25 referral credits", async () => {
    const kit = freshKit();
    const ana = await signUp(kit, 'ana');

    const bob = await signUp(kit, 'bob', { ref: ana.profile.referralCode });

    expect(bob.created).toBe(true);
    expect(bob.referral).toEqual({ ok: true, value: { referrerId: 'ana', bonus: 25 } });
    expect(bob.profile.referredBy).toBe('ana');
    expect((await kit.ledger.summary('bob')).balances).toEqual({ monthly: 5, referral: 25, addon: 0 });
    expect((await kit.ledger.summary('ana')).balances).toEqual({ monthly: 5, referral: 25, addon: 0 });
  });

  it('as typed (lower case, surrounding spaces) is still applied', async () => {
    const kit = freshKit();
    const ana = await signUp(kit, 'ana');
    const bob = await signUp(kit, 'bob', { ref: `  ${ana.profile.referralCode.toLowerCase()} ` });
    expect(bob.referral?.ok).toBe(true);
    expect((await kit.ledger.summary('bob')).balances.referral).toBe(25);
  });

  it.each([
    ['a malformed code', 'not-a-code', 'REFERRALS.INVALID_CODE'],
    ['a code with a look-alike letter', 'ABCDE1', 'REFERRALS.INVALID_CODE'],
    ['a well-formed code nobody holds', 'ZZZZZZ', 'REFERRALS.UNKNOWN_CODE'],
  ])('%s: the sign-in succeeds and the referral is refused', async (_label, ref, code) => {
    const kit = freshKit();
    const ana = await signUp(kit, 'ana');
    expect(ana.profile.referralCode).not.toBe(ref);

    const r = await kit.ensureProfileOnSignIn.execute({ userId: 'bob', email: 'bob@example.com', storedReferralCode: ref });

    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.created).toBe(true);
    expect(r.value.referral?.ok).toBe(false);
    if (r.value.referral && !r.value.referral.ok) expect(r.value.referral.error.code).toBe(code);
    expect(r.value.profile.referredBy).toBeNull();
    expect((await kit.ledger.summary('bob')).balances.referral).toBe(0);
    expect((await kit.ledger.summary('ana')).balances.referral).toBe(0);
  });

  it('of the user themself: the sign-in succeeds and the referral is REFERRALS.SELF_REFERRAL', async () => {
    const kit = freshKit();
    const ana = await signUp(kit, 'ana');
    const r = await kit.ensureProfileOnSignIn.execute({ userId: 'ana', email: 'ana@example.com', storedReferralCode: ana.profile.referralCode });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.referral?.ok).toBe(false);
    if (r.value.referral && !r.value.referral.ok) expect(r.value.referral.error.code).toBe('REFERRALS.SELF_REFERRAL');
    expect((await kit.ledger.summary('ana')).balances.referral).toBe(0);
  });

  it('kept and sent again on a later sign-in is refused as already referred and pays nothing more', async () => {
    const kit = freshKit();
    const ana = await signUp(kit, 'ana');
    await signUp(kit, 'bob', { ref: ana.profile.referralCode });
    const again = await signUp(kit, 'bob', { ref: ana.profile.referralCode });
    expect(again.referral?.ok).toBe(false);
    if (again.referral && !again.referral.ok) expect(again.referral.error.code).toBe('REFERRALS.ALREADY_REFERRED');
    expect((await kit.ledger.summary('bob')).balances.referral).toBe(25);
    expect((await kit.ledger.summary('ana')).balances.referral).toBe(25);
  });
});

describe('EnsureProfileOnSignIn — concurrency', () => {
  it('two simultaneous first sign-ins of one user create exactly one profile and one cycle', async () => {
    const kit = freshKit();
    const input = { userId: 'u1', email: 'u1@example.com', metadata: { full_name: 'Ana' } };

    const [a, b] = await Promise.all([kit.ensureProfileOnSignIn.execute(input), kit.ensureProfileOnSignIn.execute(input)]);

    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(kit.profiles.all()).toHaveLength(1);
    expect([a.value.created, b.value.created].filter(Boolean)).toHaveLength(1);
    const stored = await kit.profiles.findById('u1');
    expect(a.value.profile.referralCode).toBe(stored?.referralCode);
    expect(b.value.profile.referralCode).toBe(stored?.referralCode);
    expect(await kit.ledger.entries('u1')).toHaveLength(1);
    expect((await kit.ledger.summary('u1')).balances).toEqual({ monthly: 5, referral: 0, addon: 0 });
  });

  it('two simultaneous first sign-ins with a stored referral code pay the referral once', async () => {
    const kit = freshKit();
    const ana = await signUp(kit, 'ana');
    const input = { userId: 'bob', email: 'bob@example.com', storedReferralCode: ana.profile.referralCode };

    const results = await Promise.all([kit.ensureProfileOnSignIn.execute(input), kit.ensureProfileOnSignIn.execute(input)]);

    expect(results.every((r) => r.ok)).toBe(true);
    expect(kit.profiles.all()).toHaveLength(2);
    const grants = (await kit.ledger.entries('bob')).filter((e) => e.kind === 'grant');
    expect(grants).toHaveLength(1);
    expect((await kit.ledger.summary('bob')).balances.referral).toBe(25);
    expect((await kit.ledger.summary('ana')).balances.referral).toBe(25);
  });
});
