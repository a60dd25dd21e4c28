import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Factor, FactorChallenge } from '../../mfa/factor.entity.js';
import type { FactorStore } from '../../mfa/factor-store.port.js';

export interface FactorStoreHarness {
  readonly factors: FactorStore;
  /** A fresh id (a UUID for adapters with uuid columns). */
  newId(): string;
  /** The id of an existing account factors may point at. */
  newUserId(): Promise<string>;
  close?(): Promise<void>;
}

const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** The FactorStore contract. Call it from each adapter's spec. */
export function factorStoreContract(name: string, makeHarness: () => Promise<FactorStoreHarness>): void {
  describe(`FactorStore contract: ${name}`, () => {
    let h: FactorStoreHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    const newFactor = (userId: string, overrides: Partial<Factor> = {}): Factor => ({
      id: h.newId(),
      userId,
      friendlyName: '',
      factorType: 'totp',
      status: 'unverified',
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      lastUsedStep: null,
      createdAt: at(0),
      updatedAt: at(0),
      ...overrides,
    });
    const challengeOf = async (factor: Factor, seconds = 0): Promise<FactorChallenge> => {
      const challenge: FactorChallenge = { id: h.newId(), factorId: factor.id, createdAt: at(seconds), verifiedAt: null };
      await h.factors.createChallenge(challenge);
      return challenge;
    };

    it('stores a factor, secret included, and finds it by id and by user', async () => {
      const userId = await h.newUserId();
      const factor = newFactor(userId, { friendlyName: 'Phone' });
      expect(await h.factors.insert(factor)).toBe('inserted');
      expect(plain(await h.factors.findById(factor.id))).toEqual(plain(factor));
      expect(plain(await h.factors.listForUser(userId))).toEqual([plain(factor)]);
      expect(await h.factors.listForUser(await h.newUserId())).toEqual([]);
      expect(await h.factors.findById(h.newId())).toBeNull();
    });

    it('refuses a second factor with the same non-empty name for one user, not for another user or an empty name', async () => {
      const userId = await h.newUserId();
      expect(await h.factors.insert(newFactor(userId, { friendlyName: 'Laptop' }))).toBe('inserted');
      expect(await h.factors.insert(newFactor(userId, { friendlyName: 'Laptop' }))).toBe('name_taken');
      expect(await h.factors.insert(newFactor(await h.newUserId(), { friendlyName: 'Laptop' }))).toBe('inserted');
      expect(await h.factors.insert(newFactor(userId))).toBe('inserted');
      expect(await h.factors.insert(newFactor(userId))).toBe('inserted');
      expect(await h.factors.listForUser(userId)).toHaveLength(3);
    });

    it('records a verification once: the challenge is answered, the factor verified, its step remembered', async () => {
      const factor = newFactor(await h.newUserId());
      await h.factors.insert(factor);
      const challenge = await challengeOf(factor);
      expect(await h.factors.recordVerification({ factorId: factor.id, challengeId: challenge.id, step: 100, at: at(5) })).toBe('recorded');
      expect(await h.factors.recordVerification({ factorId: factor.id, challengeId: challenge.id, step: 101, at: at(6) })).toBe('already_used');
      const stored = await h.factors.findById(factor.id);
      expect(stored).toMatchObject({ status: 'verified', lastUsedStep: 100 });
      expect(stored?.updatedAt.toISOString()).toBe(at(5).toISOString());
      expect((await h.factors.findChallenge(challenge.id))?.verifiedAt?.toISOString()).toBe(at(5).toISOString());
    });

    it('refuses a step already used, or older, even on a fresh challenge (replay)', async () => {
      const factor = newFactor(await h.newUserId());
      await h.factors.insert(factor);
      expect(await h.factors.recordVerification({ factorId: factor.id, challengeId: (await challengeOf(factor)).id, step: 200, at: at(1) })).toBe('recorded');
      expect(await h.factors.recordVerification({ factorId: factor.id, challengeId: (await challengeOf(factor)).id, step: 200, at: at(2) })).toBe('already_used');
      expect(await h.factors.recordVerification({ factorId: factor.id, challengeId: (await challengeOf(factor)).id, step: 199, at: at(2) })).toBe('already_used');
      expect(await h.factors.recordVerification({ factorId: factor.id, challengeId: (await challengeOf(factor)).id, step: 201, at: at(3) })).toBe('recorded');
    });

    it('lets only one of two concurrent verifications with one step through', async () => {
      const factor = newFactor(await h.newUserId());
      await h.factors.insert(factor);
      const [a, b] = [await challengeOf(factor), await challengeOf(factor)];
      const outcomes = await Promise.all([
        h.factors.recordVerification({ factorId: factor.id, challengeId: a.id, step: 300, at: at(1) }),
        h.factors.recordVerification({ factorId: factor.id, challengeId: b.id, step: 300, at: at(1) }),
      ]);
      expect([...outcomes].sort()).toEqual(['already_used', 'recorded']);
    });

    it('does not record against a challenge of another factor', async () => {
      const userId = await h.newUserId();
      const [one, two] = [newFactor(userId), newFactor(userId)];
      await h.factors.insert(one);
      await h.factors.insert(two);
      const challenge = await challengeOf(one);
      expect(await h.factors.recordVerification({ factorId: two.id, challengeId: challenge.id, step: 1, at: at(1) })).toBe('already_used');
      expect((await h.factors.findById(two.id))?.status).toBe('unverified');
    });

    it('deletes only the unverified factors of one user, with their challenges', async () => {
      const userId = await h.newUserId();
      const verified = newFactor(userId);
      const pending = newFactor(userId);
      const otherUsers = newFactor(await h.newUserId());
      for (const f of [verified, pending, otherUsers]) await h.factors.insert(f);
      await h.factors.recordVerification({ factorId: verified.id, challengeId: (await challengeOf(verified)).id, step: 1, at: at(1) });
      const pendingChallenge = await challengeOf(pending);
      await h.factors.deleteUnverified(userId);
      expect((await h.factors.listForUser(userId)).map((f) => f.id)).toEqual([verified.id]);
      expect(await h.factors.findChallenge(pendingChallenge.id)).toBeNull();
      expect(await h.factors.findById(otherUsers.id)).not.toBeNull();
    });

    it('deletes a factor of its own user only', async () => {
      const userId = await h.newUserId();
      const factor = newFactor(userId);
      await h.factors.insert(factor);
      const challenge = await challengeOf(factor);
      expect(await h.factors.delete(factor.id, await h.newUserId())).toBe(false);
      expect(await h.factors.delete(factor.id, userId)).toBe(true);
      expect(await h.factors.findById(factor.id)).toBeNull();
      expect(await h.factors.findChallenge(challenge.id)).toBeNull();
      expect(await h.factors.delete(factor.id, userId)).toBe(false);
    });
  });
}
