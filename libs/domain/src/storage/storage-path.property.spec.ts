import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { OBJECT_NAME_MAX_BYTES, normaliseObjectPath } from './storage-path.js';

describe('object path normalisation (properties)', () => {
  const segment = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
  const path = fc.array(fc.oneof(segment, fc.constant(''), fc.constant('..'), fc.constant('.')), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('/'));
  const anyPath = fc.oneof(path, fc.string({ unit: 'binary', maxLength: 80 }));

  it('is idempotent, and what it accepts has no empty, . or .. segment, no edge slash, no control character, NFC, ≤ 1024 bytes', () => {
    fc.assert(
      fc.property(anyPath, (raw) => {
        const once = normaliseObjectPath(raw);
        if (!once.ok) return;
        const name = once.value;
        expect(normaliseObjectPath(name)).toEqual(once);
        expect(name.split('/').every((s) => s !== '' && s !== '.' && s !== '..')).toBe(true);
        expect(/[\u0000-\u001f\u007f]/.test(name)).toBe(false);
        expect(name.normalize('NFC')).toBe(name);
        expect(encodeURIComponent(name).replace(/%[0-9A-F]{2}/g, 'x').length).toBeLessThanOrEqual(OBJECT_NAME_MAX_BYTES);
      }),
    );
  });

  it('slashes around and between segments never change the name', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter((s) => s !== '.' && s !== '..'), { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 3 }), (parts, n) => {
        const sep = '/'.repeat(n);
        expect(normaliseObjectPath(`${sep}${parts.join(sep)}${sep}`)).toEqual({ ok: true, value: parts.join('/') });
      }),
    );
  });
});
