import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { EmailAddress } from '../../auth/email-address.js';
import type { CodePurpose, OneTimeCode } from '../../auth/one-time-code.js';
import type { ConsumeCodeOutcome, ConsumeCodeRequest, OneTimeCodeStore } from '../../auth/one-time-code-store.port.js';

export interface OneTimeCodeStoreHarness {
  readonly codes: OneTimeCodeStore;
  /** A fresh id (a UUID for adapters with uuid columns). */
  newId(): string;
  /** The id of an existing account codes may point at (adapters with a foreign key create one). */
  newUserId(): Promise<string>;
  close?(): Promise<void>;
}

const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const MINUTE = 60_000;

/** The OneTimeCodeStore contract. Call it from each adapter's spec. */
export function oneTimeCodeStoreContract(name: string, makeHarness: () => Promise<OneTimeCodeStoreHarness>): void {
  describe(`OneTimeCodeStore contract: ${name}`, () => {
    let h: OneTimeCodeStoreHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    const email = () => `code-${h.newId()}@example.com` as EmailAddress;
    const code = async (over: Partial<OneTimeCode> & { email: EmailAddress }): Promise<OneTimeCode> => ({
      id: h.newId(),
      purpose: 'signup',
      userId: over.userId === undefined ? await h.newUserId() : over.userId,
      codeHash: 'digest-right',
      issuedAt: at(0),
      expiresAt: at(600),
      failedAttempts: 0,
      consumedAt: null,
      ...over,
    });
    const consume = (address: EmailAddress, digest: string, seconds: number, purposes: CodePurpose[] = ['signup']): Promise<ConsumeCodeOutcome> => {
      const request: ConsumeCodeRequest = { email: address, candidates: purposes.map((purpose) => ({ purpose, codeHash: digest })), now: at(seconds), maxFailedAttempts: 5 };
      return h.codes.consume(request);
    };

    it('accepts the right digest once, and answers the consumed code', async () => {
      const address = email();
      const issued = await code({ email: address });
      expect(await h.codes.issue(issued, MINUTE)).toEqual({ kind: 'issued' });
      const first = await consume(address, 'digest-right', 10);
      expect(first.kind).toBe('accepted');
      if (first.kind === 'accepted') {
        expect(first.code.id).toBe(issued.id);
        expect(first.code.userId).toBe(issued.userId);
        expect(first.code.consumedAt?.toISOString()).toBe(at(10).toISOString());
      }
      expect((await consume(address, 'digest-right', 11)).kind).toBe('rejected');
    });

    it('accepts a code only for its own address and purpose', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address, purpose: 'recovery' }), MINUTE);
      expect((await consume(email(), 'digest-right', 1, ['recovery'])).kind).toBe('rejected');
      expect((await consume(address, 'digest-right', 1, ['signup', 'magiclink'])).kind).toBe('rejected');
      expect((await consume(address, 'digest-right', 1, ['signup', 'recovery'])).kind).toBe('accepted');
    });

    it('refuses an expired code', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address }), MINUTE);
      expect((await consume(address, 'digest-right', 600)).kind).toBe('rejected');
    });

    it('kills a code after five wrong tries, even for the right digest', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address }), MINUTE);
      for (let i = 0; i < 5; i += 1) expect((await consume(address, `wrong-${i}`, i + 1)).kind).toBe('rejected');
      expect((await consume(address, 'digest-right', 10)).kind).toBe('rejected');
    });

    it('still accepts the right digest after four wrong tries', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address }), MINUTE);
      for (let i = 0; i < 4; i += 1) await consume(address, `wrong-${i}`, i + 1);
      expect((await consume(address, 'digest-right', 10)).kind).toBe('accepted');
    });

    it('never accepts a decoy', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address, userId: null, codeHash: null }), MINUTE);
      expect((await consume(address, 'digest-right', 1)).kind).toBe('rejected');
    });

    it('holds the cooldown per (address, purpose), then replaces the code', async () => {
      const address = email();
      const first = await code({ email: address });
      await h.codes.issue(first, MINUTE);
      expect(await h.codes.issue(await code({ email: address, issuedAt: at(20), codeHash: 'digest-second' }), MINUTE)).toEqual({
        kind: 'cooling_down',
        retryAfterMs: 40_000,
      });
      expect(await h.codes.issue(await code({ email: address, purpose: 'recovery', issuedAt: at(20) }), MINUTE)).toEqual({ kind: 'issued' });
      expect(await h.codes.issue(await code({ email: address, issuedAt: at(60), expiresAt: at(660), codeHash: 'digest-second' }), MINUTE)).toEqual({
        kind: 'issued',
      });
      expect((await consume(address, 'digest-right', 61)).kind).toBe('rejected');
      expect((await consume(address, 'digest-second', 62)).kind).toBe('accepted');
    });

    it('lets only one of many concurrent issues within the cooldown through', async () => {
      const address = email();
      const outcomes = await Promise.all(Array.from({ length: 6 }, async (_, i) => h.codes.issue(await code({ email: address, issuedAt: at(i) }), MINUTE)));
      expect(outcomes.filter((o) => o.kind === 'issued')).toHaveLength(1);
    });

    it('accepts a code at most once among concurrent verifications', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address }), MINUTE);
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => consume(address, 'digest-right', i + 1)));
      expect(outcomes.filter((o) => o.kind === 'accepted')).toHaveLength(1);
    });

    it('counts every one of many concurrent wrong tries', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address }), MINUTE);
      await Promise.all(Array.from({ length: 5 }, (_, i) => consume(address, `wrong-${i}`, i + 1)));
      expect((await consume(address, 'digest-right', 10)).kind).toBe('rejected');
    });

    it('discards a code: it no longer verifies nor holds the cooldown', async () => {
      const address = email();
      const issued = await code({ email: address });
      await h.codes.issue(issued, MINUTE);
      await h.codes.discard(issued.id);
      expect((await consume(address, 'digest-right', 1)).kind).toBe('rejected');
      expect((await h.codes.issue(await code({ email: address, issuedAt: at(2) }), MINUTE)).kind).toBe('issued');
    });

    it('purges codes that expired before a time', async () => {
      const address = email();
      await h.codes.issue(await code({ email: address, expiresAt: at(-1) }), MINUTE);
      expect(await h.codes.purgeExpired(at(0))).toBeGreaterThanOrEqual(1);
      expect((await h.codes.issue(await code({ email: address, issuedAt: at(1) }), MINUTE)).kind).toBe('issued');
    });
  });
}
