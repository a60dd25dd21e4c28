import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type AuthUser, createAuthUser } from '../../auth/auth-user.entity.js';
import type { AuthUserRepository } from '../../auth/auth-user-repository.port.js';
import type { EmailAddress } from '../../auth/email-address.js';

export interface AuthUserRepositoryHarness {
  readonly users: AuthUserRepository;
  /** A fresh id (a UUID for adapters with uuid columns) no other test uses. */
  newId(): string;
  close?(): Promise<void>;
}

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 15, 10, minutes));

/** The AuthUserRepository contract. Call it from each adapter's spec. */
export function authUserRepositoryContract(name: string, makeHarness: () => Promise<AuthUserRepositoryHarness>): void {
  describe(`AuthUserRepository contract: ${name}`, () => {
    let h: AuthUserRepositoryHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close?.();
    });

    const newUser = (overrides: Partial<AuthUser> = {}): AuthUser => {
      const id = h.newId();
      const email = (overrides.email ?? `user-${id}@example.com`) as EmailAddress;
      return { ...createAuthUser({ id, identityId: h.newId(), email, passwordHash: 'hash$1', metadata: { full_name: 'Ana' } }, at(0)), ...overrides };
    };
    const plain = (user: AuthUser | null) => JSON.parse(JSON.stringify(user));

    it('stores an account and finds it by id and by address, every field intact', async () => {
      const user = newUser({ phone: null, confirmationSentAt: at(1) });
      expect(await h.users.insert(user)).toBe('inserted');
      expect(plain(await h.users.findById(user.id))).toEqual(plain(user));
      expect(plain(await h.users.findByEmail(user.email))).toEqual(plain(user));
      const found = await h.users.findById(user.id);
      expect(found?.createdAt).toBeInstanceOf(Date);
      expect(found?.userMetadata).toEqual({ full_name: 'Ana', email: user.email, email_verified: false, phone_verified: false, sub: user.id });
      expect(found?.appMetadata).toEqual({ provider: 'email', providers: ['email'] });
    });

    it('answers null for unknown ids and addresses', async () => {
      expect(await h.users.findById(h.newId())).toBeNull();
      expect(await h.users.findByEmail(`nobody-${h.newId()}@example.com` as EmailAddress)).toBeNull();
    });

    it('refuses a second live account on one address', async () => {
      const first = newUser();
      await h.users.insert(first);
      expect(await h.users.insert(newUser({ email: first.email }))).toBe('email_taken');
    });

    it('lets exactly one of many concurrent sign-ups take an address', async () => {
      const email = `race-${h.newId()}@example.com` as EmailAddress;
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => h.users.insert(newUser({ email }))));
      expect(outcomes.filter((o) => o === 'inserted')).toHaveLength(1);
    });

    it('updates only the fields in the patch and answers the stored account', async () => {
      const user = newUser();
      await h.users.insert(user);
      const updated = await h.users.update(user.id, { lastSignInAt: at(5), updatedAt: at(5) });
      expect(updated.outcome).toBe('updated');
      const stored = await h.users.findById(user.id);
      expect(plain(stored)).toEqual(plain({ ...user, lastSignInAt: at(5), updatedAt: at(5) }));
      expect(updated.outcome === 'updated' && plain(updated.user)).toEqual(plain(stored));
    });

    it('does not let two targeted updates undo each other', async () => {
      const user = newUser();
      await h.users.insert(user);
      await Promise.all([
        h.users.update(user.id, { passwordHash: 'hash$2' }),
        h.users.update(user.id, { lastSignInAt: at(7) }),
      ]);
      const stored = await h.users.findById(user.id);
      expect(stored?.passwordHash).toBe('hash$2');
      expect(stored?.lastSignInAt?.toISOString()).toBe(at(7).toISOString());
    });

    it('refuses moving an account onto a taken address, and reports unknown ids', async () => {
      const a = newUser();
      const b = newUser();
      await h.users.insert(a);
      await h.users.insert(b);
      expect((await h.users.update(b.id, { email: a.email })).outcome).toBe('email_taken');
      expect((await h.users.findById(b.id))?.email).toBe(b.email);
      expect((await h.users.update(h.newId(), { lastSignInAt: at(1) })).outcome).toBe('not_found');
    });

    it('hides deleted accounts from address lookups and frees their address', async () => {
      const old = newUser({ emailConfirmedAt: at(1) });
      await h.users.insert(old);
      await h.users.update(old.id, { deletedAt: at(2) });
      expect(await h.users.findByEmail(old.email)).toBeNull();
      expect((await h.users.findById(old.id))?.deletedAt?.toISOString()).toBe(at(2).toISOString());
      const fresh = newUser({ email: old.email });
      expect(await h.users.insert(fresh)).toBe('inserted');
      expect((await h.users.findByEmail(old.email))?.id).toBe(fresh.id);
    });

    it('keeps pending email changes and metadata as written', async () => {
      const user = newUser();
      await h.users.insert(user);
      const next = `next-${h.newId()}@example.com` as EmailAddress;
      await h.users.update(user.id, { emailChange: next, emailChangeSentAt: at(3), userMetadata: { nested: { a: [1, 'two', null] } } });
      const stored = await h.users.findById(user.id);
      expect(stored?.emailChange).toBe(next);
      expect(stored?.userMetadata).toEqual({ nested: { a: [1, 'two', null] } });
      // a pending change does not hold the new address
      expect(await h.users.findByEmail(next)).toBeNull();
    });
  });
}
