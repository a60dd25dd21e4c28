import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips a secret, with a fresh nonce each time', () => {
    const a = box.seal('pässword "x"', 'db-1:password');
    expect(a).not.toContain('pässword');
    expect(box.seal('pässword "x"', 'db-1:password')).not.toBe(a);
    expect(box.open(a, 'db-1:password')).toBe('pässword "x"');
  });

  it('refuses another context, another key, a tampered body and garbage', () => {
    const sealed = box.seal('secret', 'db-1:jwt');
    expect(() => box.open(sealed, 'db-2:jwt')).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'db-1:jwt')).toThrow();
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[3]!, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64')].join(':'), 'db-1:jwt')).toThrow();
    expect(() => box.open('plain', 'db-1:jwt')).toThrow();
    expect(() => new SecretBox(randomBytes(16))).toThrow();
  });
});
