import { describe, expect, it } from '@jest/globals';
import { Argon2PasswordHasher, OWASP_ARGON2ID } from './argon2-password-hasher.adapter.js';

describe('Argon2PasswordHasher', () => {
  const hasher = new Argon2PasswordHasher();

  it('hashes with argon2id and the OWASP parameters, salted', async () => {
    const a = await hasher.hash('correct horse battery');
    const b = await hasher.hash('correct horse battery');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hasher.hash('pässwörd 🔥 long enough');
    expect(await hasher.verify(hash, 'pässwörd 🔥 long enough')).toBe(true);
    expect(await hasher.verify(hash, 'pässwörd 🔥 long enougH')).toBe(false);
    expect(await hasher.verify(hash, '')).toBe(false);
  });

  it('answers false, not an exception, for a hash it cannot read', async () => {
    expect(await hasher.verify('', 'x')).toBe(false);
    expect(await hasher.verify('fake-sha256$1$abc', 'x')).toBe(false);
    expect(await hasher.verify('$argon2id$v=19$garbage', 'x')).toBe(false);
  });

  it('tells when a hash was made with other parameters', async () => {
    const weaker = new Argon2PasswordHasher({ ...OWASP_ARGON2ID, memoryCost: 8_192 });
    const hash = await weaker.hash('correct horse battery');
    expect(hasher.needsRehash(hash)).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('x'))).toBe(false);
    expect(await hasher.verify(hash, 'correct horse battery')).toBe(true);
  });
});
