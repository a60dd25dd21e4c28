import { referralGrantKeys } from '../credits/ledger-keys.js';
import { describe, expect, it } from '@jest/globals';
import type { LedgerEntry } from '../credits/ledger-entry.js';
import { type TestKit, createTestKit, signUp } from '../testing/test-kit.js';

async function kitWith(...users: string[]) {
  const kit = createTestKit();
  const codes: Record<string, string> = {};
  for (const u of users) codes[u] = (await signUp(kit, u)).profile.referralCode;
  return { kit, codes };
}

const referralBalance = async (kit: TestKit, userId: string) => (await kit.ledger.summary(userId)).balances.referral;
const grants = (entries: readonly LedgerEntry[]) => entries.filter((e) => e.kind === 'grant');

async function expectRefused(kit: TestKit, refereeId: string, code: string, errorCode: string) {
  const r = await kit.applyReferral.execute({ refereeId, code });
  expect(r.ok).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toBe(errorCode);
    expect(r.error.message.length).toBeGreaterThan(0);
  }
}

describe('ApplyReferral — a referral pays both sides once', () => {
  it('records the referrer and grants 25 referral credits to each side, keyed by the referee', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');

    const r = await kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! });

    expect(r).toEqual({ ok: true, value: { referrerId: 'ana', bonus: 25 } });
    expect((await kit.profiles.findById('bob'))?.referredBy).toBe('ana');
    expect((await kit.profiles.findById('ana'))?.referredBy).toBeNull();
    expect((await kit.ledger.summary('bob')).balances).toEqual({ monthly: 5, referral: 25, addon: 0 });
    expect((await kit.ledger.summary('ana')).balances).toEqual({ monthly: 5, referral: 25, addon: 0 });
    const keys = referralGrantKeys('bob');
    expect(grants(await kit.ledger.entries('bob')).map((g) => [g.key, g.amount, g.reason])).toEqual([[keys.referee, 25, 'referral_bonus']]);
    expect(grants(await kit.ledger.entries('ana')).map((g) => [g.key, g.amount, g.reason])).toEqual([[keys.referrer, 25, 'referral_bonus']]);
    expect(await kit.profiles.countReferredBy('ana')).toBe(1);
  });

  it('applying the same code twice: the second is REFERRALS.ALREADY_REFERRED and balances stay', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');
    expect((await kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! })).ok).toBe(true);
    const before = [await kit.ledger.entries('ana'), await kit.ledger.entries('bob')];

    await expectRefused(kit, 'bob', codes.ana!, 'REFERRALS.ALREADY_REFERRED');

    expect([await kit.ledger.entries('ana'), await kit.ledger.entries('bob')]).toEqual(before);
    expect(await referralBalance(kit, 'ana')).toBe(25);
    expect(await referralBalance(kit, 'bob')).toBe(25);
  });

  it('a referrer earns 25 for each friend', async () => {
    const { kit, codes } = await kitWith('ana', 'bob', 'cat', 'dan');
    for (const friend of ['bob', 'cat', 'dan']) expect((await kit.applyReferral.execute({ refereeId: friend, code: codes.ana! })).ok).toBe(true);
    expect(await referralBalance(kit, 'ana')).toBe(75);
    expect(await kit.profiles.countReferredBy('ana')).toBe(3);
    for (const friend of ['bob', 'cat', 'dan']) expect(await referralBalance(kit, friend)).toBe(25);
  });

  it('accepts the code as typed: lower case with surrounding spaces', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');
    const r = await kit.applyReferral.execute({ refereeId: 'bob', code: ` ${codes.ana!.toLowerCase()}  ` });
    expect(r.ok).toBe(true);
    expect(await referralBalance(kit, 'bob')).toBe(25);
  });
});

describe('ApplyReferral — refusals change nothing', () => {
  it('self-referral is REFERRALS.SELF_REFERRAL', async () => {
    const { kit, codes } = await kitWith('ana');
    await expectRefused(kit, 'ana', codes.ana!, 'REFERRALS.SELF_REFERRAL');
    expect(await referralBalance(kit, 'ana')).toBe(0);
    expect((await kit.profiles.findById('ana'))?.referredBy).toBeNull();
  });

  it('a second referral of the same user by a different referrer is REFERRALS.ALREADY_REFERRED', async () => {
    const { kit, codes } = await kitWith('ana', 'bob', 'cat');
    expect((await kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! })).ok).toBe(true);

    await expectRefused(kit, 'bob', codes.cat!, 'REFERRALS.ALREADY_REFERRED');

    expect((await kit.profiles.findById('bob'))?.referredBy).toBe('ana');
    expect(await referralBalance(kit, 'bob')).toBe(25);
    expect(await referralBalance(kit, 'cat')).toBe(0);
    expect(await kit.ledger.entries('cat')).toHaveLength(1); // only cat's allowance cycle
  });

  it('circular: after A referred B, applying B’s code to A is REFERRALS.CIRCULAR', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');
    expect((await kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! })).ok).toBe(true);

    await expectRefused(kit, 'ana', codes.bob!, 'REFERRALS.CIRCULAR');

    expect((await kit.profiles.findById('ana'))?.referredBy).toBeNull();
    expect(await referralBalance(kit, 'ana')).toBe(25);
    expect(await referralBalance(kit, 'bob')).toBe(25);
  });

  it('an unknown well-formed code is REFERRALS.UNKNOWN_CODE', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');
    const unknown = ['ZZZZZZ', 'YYYYYY'].find((c) => !Object.values(codes).includes(c))!;
    await expectRefused(kit, 'bob', unknown, 'REFERRALS.UNKNOWN_CODE');
    expect(await referralBalance(kit, 'bob')).toBe(0);
  });

  it.each([['ABC'], ['ABCDEFG'], ['ABCDE0'], ['']])('a malformed code %p is REFERRALS.INVALID_CODE', async (code) => {
    const { kit } = await kitWith('bob');
    await expectRefused(kit, 'bob', code, 'REFERRALS.INVALID_CODE');
  });

  it('a referee without a profile is PROFILES.NOT_FOUND', async () => {
    const { kit, codes } = await kitWith('ana');
    await expectRefused(kit, 'ghost', codes.ana!, 'PROFILES.NOT_FOUND');
    expect(await referralBalance(kit, 'ana')).toBe(0);
  });
});

describe('ApplyReferral — concurrency', () => {
  it('two simultaneous applications of the same referral grant exactly once', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');

    const results = await Promise.all([
      kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! }),
      kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! }),
    ]);

    expect(results.some((r) => r.ok)).toBe(true);
    expect(grants(await kit.ledger.entries('bob'))).toHaveLength(1);
    expect(grants(await kit.ledger.entries('ana'))).toHaveLength(1);
    expect(await referralBalance(kit, 'ana')).toBe(25);
    expect(await referralBalance(kit, 'bob')).toBe(25);
  });

  it('two simultaneous referrals of one user by different referrers: exactly one wins', async () => {
    const { kit, codes } = await kitWith('ana', 'bob', 'cat');

    const [viaAna, viaCat] = await Promise.all([
      kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! }),
      kit.applyReferral.execute({ refereeId: 'bob', code: codes.cat! }),
    ]);

    expect([viaAna.ok, viaCat.ok].filter(Boolean)).toHaveLength(1);
    const loser = viaAna.ok ? viaCat : viaAna;
    if (!loser.ok) expect(loser.error.code).toBe('REFERRALS.ALREADY_REFERRED');
    const winner = (await kit.profiles.findById('bob'))?.referredBy;
    expect(winner).toBe(viaAna.ok ? 'ana' : 'cat');
    expect(await referralBalance(kit, 'bob')).toBe(25);
    expect((await referralBalance(kit, 'ana')) + (await referralBalance(kit, 'cat'))).toBe(25);
  });
});

/**
 * The circular check happens inside the repository's atomic `recordReferrer` (both rows under
 * one lock), so two simultaneous applications A→B and B→A cannot both be recorded.
 */
describe('ApplyReferral — simultaneous mutual referrals', () => {
  it('A applying B’s code while B applies A’s: at most one referral is recorded', async () => {
    const { kit, codes } = await kitWith('ana', 'bob');

    const results = await Promise.all([
      kit.applyReferral.execute({ refereeId: 'ana', code: codes.bob! }),
      kit.applyReferral.execute({ refereeId: 'bob', code: codes.ana! }),
    ]);

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const ana = await kit.profiles.findById('ana');
    const bob = await kit.profiles.findById('bob');
    expect(ana?.referredBy === 'bob' && bob?.referredBy === 'ana').toBe(false);
  });
});
