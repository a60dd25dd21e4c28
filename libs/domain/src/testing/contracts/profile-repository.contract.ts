import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { type Profile, createProfile } from '../../profiles/profile.entity.js';
import type { ProfileRepository, RecordReferrerOutcome } from '../../profiles/profile-repository.port.js';

export interface ProfileRepositoryHarness {
  readonly profiles: ProfileRepository;
  close?(): Promise<void>;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 9, 0, 0, 0) + minutes * 60_000 + 123);

/**
 * The ProfileRepository contract: every adapter stores every SPEC §3 field, creates one profile
 * under concurrent sign-ins, and records a referrer atomically (two people applying each
 * other's codes at once cannot both succeed). Credit fields stay 0 here: adapters backed by
 * the ledger fill them from it, which their own specs check.
 */
export function profileRepositoryContract(name: string, makeHarness: () => Promise<ProfileRepositoryHarness>): void {
  describe(`ProfileRepository contract: ${name}`, () => {
    let h: ProfileRepositoryHarness;
    let n = 0;
    /** A fresh id and a referral code no other profile of this suite holds. */
    const fresh = (prefix = 'user') => {
      n += 1;
      let code = '';
      for (let i = 0, rest = n; i < 6; i++, rest = Math.floor(rest / CODE_ALPHABET.length)) {
        code = CODE_ALPHABET[rest % CODE_ALPHABET.length] + code;
      }
      return { id: `${prefix}-${n}`, code };
    };
    const newProfile = (prefix?: string, now = at(0)): Profile => {
      const { id, code } = fresh(prefix);
      return createProfile({ id, email: `${id}@example.com`, metadata: { full_name: `Name ${id}` }, referralCode: code }, now);
    };
    const stored = async (prefix?: string): Promise<Profile> => {
      const p = newProfile(prefix);
      await h.profiles.insertIfAbsent(p);
      return p;
    };

    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    it('stores a new profile with its SPEC defaults and reads it back by id and by referral code', async () => {
      const p = newProfile();
      const result = await h.profiles.insertIfAbsent(p);
      expect(result).toEqual({ profile: p, created: true });
      expect(await h.profiles.findById(p.id)).toEqual(p);
      expect(await h.profiles.findByReferralCode(p.referralCode)).toEqual(p);
    });

    it('round-trips every field exactly, dates to the millisecond', async () => {
      const base = newProfile();
      const p: Profile = {
        ...base,
        name: 'Zoë Ünïcode 李',
        dateOfBirth: '1990-05-17',
        organization: 'Acme',
        role: 'developer',
        subscriptionPlan: 'pro_annual',
        subscriptionId: 'sub_123',
        subscriptionStatus: 'active',
        billingInterval: 'annual',
        customerId: 'cus_123',
        preferredCurrency: 'INR',
        referredBy: 'someone-else',
        createdAt: new Date(Date.UTC(2025, 11, 31, 23, 59, 59, 999)),
        updatedAt: new Date(Date.UTC(2026, 1, 28, 0, 0, 0, 1)),
        lastSignInAt: new Date(Date.UTC(2026, 2, 1, 12, 30, 15, 250)),
        billingCycleStartDate: new Date(Date.UTC(2026, 0, 31, 8, 0, 0, 7)),
        billingCycleEndDate: new Date(Date.UTC(2026, 1, 28, 8, 0, 0, 7)),
        firstPurchasedDate: new Date(Date.UTC(2026, 0, 31, 7, 59, 0, 500)),
        subscriptionEndDate: new Date(Date.UTC(2027, 0, 31, 8, 0, 0, 0)),
        proMultiplier: 3,
      };
      await h.profiles.insertIfAbsent(p);
      const read = await h.profiles.findById(p.id);
      expect(read).toEqual(p);
      expect(read?.createdAt.getTime()).toBe(p.createdAt.getTime());
      expect(read?.billingCycleStartDate?.getTime()).toBe(p.billingCycleStartDate?.getTime());
    });

    it('returns null for an unknown id or referral code', async () => {
      expect(await h.profiles.findById('nobody')).toBeNull();
      expect(await h.profiles.findByReferralCode('ZZZZZ9')).toBeNull();
    });

    it('hides a profile marked deleted from every lookup, keeps its referral code taken, and marks once', async () => {
      const p = await stored();
      const other = await stored();
      await h.profiles.markDeleted(p.id, at(5));
      await h.profiles.markDeleted(p.id, at(9));
      expect(await h.profiles.findById(p.id)).toBeNull();
      expect(await h.profiles.findByReferralCode(p.referralCode)).toBeNull();
      expect(await h.profiles.findById(other.id)).toEqual(other);
      expect(await h.profiles.findByReferralCode(other.referralCode)).toEqual(other);
      await expect(h.profiles.insertIfAbsent({ ...newProfile(), referralCode: p.referralCode })).rejects.toThrow('is already taken');
      await expect(h.profiles.markDeleted('nobody', at(5))).rejects.toThrow('Record with id nobody not found');
    });

    it('keeps the first profile when one with the same id is inserted again', async () => {
      const first = await stored();
      const again = { ...newProfile(), id: first.id, name: 'Someone else' };
      const result = await h.profiles.insertIfAbsent(again);
      expect(result).toEqual({ profile: first, created: false });
      expect(await h.profiles.findById(first.id)).toEqual(first);
      expect(await h.profiles.findByReferralCode(again.referralCode)).toBeNull();
    });

    it('creates exactly one profile under concurrent sign-ins of one user', async () => {
      const id = fresh().id;
      const attempts = Array.from({ length: 12 }, (_, i) => ({ ...newProfile(), id, email: `${id}@example.com`, name: `attempt ${i}` }));
      const results = await Promise.all(attempts.map((p) => h.profiles.insertIfAbsent(p)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      const winner = results.find((r) => r.created)?.profile;
      expect(winner).toBeDefined();
      for (const r of results) expect(r.profile).toEqual(winner);
      expect(await h.profiles.findById(id)).toEqual(winner);
      const losers = attempts.filter((p) => p.name !== winner?.name);
      for (const p of losers) expect(await h.profiles.findByReferralCode(p.referralCode)).toBeNull();
    });

    it('refuses a referral code another profile holds, and stores nothing', async () => {
      const holder = await stored();
      const other = { ...newProfile(), referralCode: holder.referralCode };
      await expect(h.profiles.insertIfAbsent(other)).rejects.toThrow(`Referral code ${holder.referralCode} is already taken`);
      expect(await h.profiles.findById(other.id)).toBeNull();
      expect(await h.profiles.findByReferralCode(holder.referralCode)).toEqual(holder);
    });

    it('replaces a stored profile on update', async () => {
      const p = await stored();
      const changed: Profile = {
        ...p,
        name: 'Renamed',
        subscriptionPlan: 'pro_monthly',
        subscriptionStatus: 'active',
        billingInterval: 'monthly',
        billingCycleStartDate: at(60),
        billingCycleEndDate: at(60 * 24 * 31),
        proMultiplier: 2,
        lastSignInAt: at(5),
        updatedAt: at(5),
      };
      await h.profiles.update(changed);
      expect(await h.profiles.findById(p.id)).toEqual(changed);
    });

    it('fails to update a profile that does not exist, with SPEC §5’s message', async () => {
      const ghost = newProfile('ghost');
      await expect(h.profiles.update(ghost)).rejects.toThrow(`Record with id ${ghost.id} not found`);
      expect(await h.profiles.findById(ghost.id)).toBeNull();
    });

    it('records a referrer once: recorded, then already_referred naming the first referrer', async () => {
      const referrer = await stored();
      const referee = await stored();
      const other = await stored();
      expect(await h.profiles.recordReferrer(referee.id, referrer.id, at(10))).toEqual({ outcome: 'recorded' });
      const after = await h.profiles.findById(referee.id);
      expect(after).toEqual({ ...referee, referredBy: referrer.id, updatedAt: at(10) });

      expect(await h.profiles.recordReferrer(referee.id, other.id, at(11))).toEqual({ outcome: 'already_referred', referredBy: referrer.id });
      expect(await h.profiles.recordReferrer(referee.id, referrer.id, at(12))).toEqual({ outcome: 'already_referred', referredBy: referrer.id });
      expect(await h.profiles.findById(referee.id)).toEqual(after);
    });

    it('refuses to record the person you referred as your referrer (circular)', async () => {
      const a = await stored();
      const b = await stored();
      await h.profiles.recordReferrer(b.id, a.id, at(1));
      expect(await h.profiles.recordReferrer(a.id, b.id, at(2))).toEqual({ outcome: 'circular' });
      expect((await h.profiles.findById(a.id))?.referredBy).toBeNull();
    });

    it('fails to record a referral between profiles that do not exist', async () => {
      const p = await stored();
      await expect(h.profiles.recordReferrer('ghost-referee', p.id, at(1))).rejects.toThrow('Record with id ghost-referee not found');
      await expect(h.profiles.recordReferrer(p.id, 'ghost-referrer', at(1))).rejects.toThrow('Record with id ghost-referrer not found');
      expect((await h.profiles.findById(p.id))?.referredBy).toBeNull();
    });

    it('lets at most one of two people applying each other’s codes at once succeed', async () => {
      for (let round = 0; round < 8; round++) {
        const a = await stored('mutual');
        const b = await stored('mutual');
        const outcomes = await Promise.all([h.profiles.recordReferrer(a.id, b.id, at(1)), h.profiles.recordReferrer(b.id, a.id, at(1))]);
        expect(outcomes.map((o) => o.outcome).sort()).toEqual(['circular', 'recorded']);
        const referredBy = [(await h.profiles.findById(a.id))?.referredBy, (await h.profiles.findById(b.id))?.referredBy];
        expect(referredBy.filter((r) => r !== null)).toHaveLength(1);
      }
    });

    it('records exactly one of many concurrent referrers', async () => {
      const referee = await stored();
      const referrers: Profile[] = [];
      for (let i = 0; i < 8; i++) referrers.push(await stored());
      const outcomes = await Promise.all(referrers.map((r) => h.profiles.recordReferrer(referee.id, r.id, at(3))));
      expect(outcomes.filter((o) => o.outcome === 'recorded')).toHaveLength(1);
      const winner = referrers[outcomes.findIndex((o) => o.outcome === 'recorded')];
      for (const o of outcomes.filter((x) => x.outcome !== 'recorded')) {
        expect(o).toEqual({ outcome: 'already_referred', referredBy: winner?.id });
      }
      expect((await h.profiles.findById(referee.id))?.referredBy).toBe(winner?.id);
    });

    it('counts the profiles that name a user as their referrer', async () => {
      const referrer = await stored();
      const friends = [await stored(), await stored(), await stored()];
      const stranger = await stored();
      for (const f of friends.slice(0, 2)) await h.profiles.recordReferrer(f.id, referrer.id, at(1));
      await h.profiles.recordReferrer(friends[2]!.id, stranger.id, at(1));
      expect(await h.profiles.countReferredBy(referrer.id)).toBe(2);
      expect(await h.profiles.countReferredBy(stranger.id)).toBe(1);
      expect(await h.profiles.countReferredBy(friends[0]!.id)).toBe(0);
      expect(await h.profiles.countReferredBy('nobody')).toBe(0);
    });

    it('agrees with the referral rules on random sequences of recordReferrer', async () => {
      const op = fc.record({ referee: fc.integer({ min: 0, max: 3 }), referrer: fc.integer({ min: 0, max: 3 }) });
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
          const users: Profile[] = [];
          for (let i = 0; i < 4; i++) users.push(await stored('prop'));
          const model = new Map<string, string>();
          for (const [step, { referee, referrer }] of ops.entries()) {
            const refereeId = users[referee]!.id;
            const referrerId = users[referrer]!.id;
            const current = model.get(refereeId);
            let expected: RecordReferrerOutcome;
            if (current !== undefined) expected = { outcome: 'already_referred', referredBy: current };
            else if (model.get(referrerId) === refereeId) expected = { outcome: 'circular' };
            else {
              expected = { outcome: 'recorded' };
              model.set(refereeId, referrerId);
            }
            expect(await h.profiles.recordReferrer(refereeId, referrerId, at(step))).toEqual(expected);
          }
          for (const u of users) {
            expect((await h.profiles.findById(u.id))?.referredBy).toBe(model.get(u.id) ?? null);
            expect(await h.profiles.countReferredBy(u.id)).toBe([...model.values()].filter((r) => r === u.id).length);
          }
        }),
        { numRuns: 15 },
      );
    });
  });
}
