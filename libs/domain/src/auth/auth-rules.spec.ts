import { describe, expect, it } from '@jest/globals';
import { ScriptedRandom } from '../testing/scripted-random.js';
import { sha256Hex } from '../testing/auth/pure-sha256.js';
import { confirmationPatch, createAuthUser, mergeMetadata, obfuscatedUser, parseMetadata } from './auth-user.entity.js';
import { type EmailAddress, parseEmail } from './email-address.js';
import { PURPOSES_FOR, looksLikeCode } from './one-time-code.js';
import { checkPassword } from './password-policy.js';
import { randomDigits, randomHex } from './random-token.js';
import { codeMail } from './auth-mail.js';

const NOW = new Date('2026-01-15T10:00:00.000Z');

describe('parseEmail', () => {
  it.each([
    ['ana@example.com', 'ana@example.com'],
    ['  Ana.Lopez+kiln@Example.COM ', 'ana.lopez+kiln@example.com'],
    ["o'neil@mail.example.co.uk", "o'neil@mail.example.co.uk"],
  ])('reads %p as %p', (raw, email) => {
    expect(parseEmail(raw)).toEqual({ ok: true, value: email });
  });

  it.each([[''], ['ana'], ['ana@'], ['@example.com'], ['ana@localhost'], ['ana @example.com'], ['ana@exa mple.com'], ['a@b@c.com'], [42], [null]])(
    'refuses %p with GoTrue’s message',
    (raw) => {
      expect(parseEmail(raw)).toEqual({
        ok: false,
        error: { code: 'AUTH.VALIDATION_FAILED', message: 'Unable to validate email address: invalid format' },
      });
    },
  );

  it('refuses addresses longer than 254 characters', () => {
    expect(parseEmail(`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`).ok).toBe(false);
  });
});

describe('checkPassword (Kiln: at least 8 characters)', () => {
  it('accepts 8 characters and more', () => {
    expect(checkPassword('12345678').ok).toBe(true);
    expect(checkPassword('correct horse battery staple').ok).toBe(true);
  });

  it('refuses 7 with reason length and GoTrue’s message', () => {
    expect(checkPassword('1234567')).toEqual({
      ok: false,
      error: { code: 'AUTH.WEAK_PASSWORD', message: 'Password should be at least 8 characters.', reasons: ['length'] },
    });
  });

  it('counts code points, not UTF-16 units', () => {
    expect(checkPassword('🔥🔥🔥🔥🔥🔥🔥').ok).toBe(false); // 7 emoji = 14 UTF-16 units
    expect(checkPassword('🔥🔥🔥🔥🔥🔥🔥🔥').ok).toBe(true);
  });

  it('checks required character sets when configured, reporting every reason', () => {
    const policy = { minLength: 8, requiredCharacterSets: ['abcdefghijklmnopqrstuvwxyz', '0123456789'] };
    expect(checkPassword('abcdefgh1', policy).ok).toBe(true);
    const result = checkPassword('ABCDEF', policy);
    expect(!result.ok && result.error.reasons).toEqual(['length', 'characters']);
    expect(!result.ok && result.error.message).toBe(
      'Password should be at least 8 characters. Password should contain at least one character of each: abcdefghijklmnopqrstuvwxyz, 0123456789.',
    );
  });
});

describe('AuthUser', () => {
  const email = 'ana@example.com' as EmailAddress;

  it('starts unconfirmed, with GoTrue’s app_metadata and identity claims in user_metadata', () => {
    const user = createAuthUser({ id: 'u1', identityId: 'i1', email, passwordHash: 'h', metadata: { is_signup: true } }, NOW);
    expect(user).toMatchObject({
      id: 'u1',
      email,
      emailConfirmedAt: null,
      appMetadata: { provider: 'email', providers: ['email'] },
      userMetadata: { is_signup: true, email, email_verified: false, phone_verified: false, sub: 'u1' },
      createdAt: NOW,
      updatedAt: NOW,
      deletedAt: null,
    });
    expect(Object.isFrozen(user)).toBe(true);
  });

  it('confirming sets the time and flips email_verified, once', () => {
    const user = createAuthUser({ id: 'u1', identityId: 'i1', email, passwordHash: 'h', metadata: {} }, NOW);
    const patch = confirmationPatch(user, NOW);
    expect(patch.emailConfirmedAt).toBe(NOW);
    expect(patch.userMetadata?.['email_verified']).toBe(true);
    expect(confirmationPatch({ ...user, ...patch }, NOW)).toEqual({});
  });

  it('an obfuscated user looks signed-up: same shape, given id, no password, confirmation just sent', () => {
    const user = obfuscatedUser({ id: 'random-id', email, metadata: { a: 1 } }, NOW);
    expect(user).toMatchObject({ id: 'random-id', passwordHash: null, emailConfirmedAt: null, confirmationSentAt: NOW });
    expect(user.userMetadata).toEqual({ a: 1, email, email_verified: false, phone_verified: false, sub: 'random-id' });
  });

  it('merges metadata: keys replace, null removes', () => {
    expect(mergeMetadata({ a: 1, b: 2 }, { b: 3, c: 4, a: null })).toEqual({ b: 3, c: 4 });
  });

  it('parses metadata: absent is {}, objects only, bounded size', () => {
    expect(parseMetadata(undefined)).toEqual({ ok: true, value: {} });
    expect(parseMetadata({ full_name: 'Ana' })).toEqual({ ok: true, value: { full_name: 'Ana' } });
    expect(parseMetadata([1]).ok).toBe(false);
    expect(parseMetadata('x').ok).toBe(false);
    expect(parseMetadata({ big: 'x'.repeat(20_000) }).ok).toBe(false);
  });
});

describe('random tokens and codes', () => {
  it('draws hex bytes and decimal digits from the injected source', () => {
    expect(randomHex(new ScriptedRandom([0, 255, 16]), 3)).toBe('00ff10');
    expect(randomDigits(new ScriptedRandom([0, 0, 7, 9, 1, 2]), 6)).toBe('007912');
  });

  it('knows what a code looks like', () => {
    expect(looksLikeCode('012345')).toBe(true);
    for (const bad of ['12345', '1234567', '12345a', ' 123456', 123456, null]) expect(looksLikeCode(bad)).toBe(false);
  });

  it('maps verification types to the codes they accept', () => {
    expect(PURPOSES_FOR.signup).toEqual(['signup']);
    expect(PURPOSES_FOR.email).toEqual(['signup', 'magiclink']);
    expect(PURPOSES_FOR.recovery).toEqual(['recovery']);
  });

  it('mails the code in the subject and the text', () => {
    const mail = codeMail({ to: 'ana@example.com', purpose: 'signup', code: '042424', productName: 'Kiln' });
    expect(mail.to).toBe('ana@example.com');
    expect(mail.subject).toContain('042424');
    expect(mail.text).toContain('042424');
    expect(mail.text).toContain('10 minutes');
  });
});

describe('pure SHA-256 (the in-memory hasher)', () => {
  it.each([
    ['empty', '', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['two blocks', 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
    ['a × 1000', 'a'.repeat(1000), '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3'],
    ['€ (UTF-8)', '€', 'c4cc90ed3d26f12d4b08a75140970a7904035c31cbb4515a83f19b9003c00d1d'],
  ])('hashes %s', (_label, text, hex) => {
    expect(sha256Hex(text)).toBe(hex);
  });
});
