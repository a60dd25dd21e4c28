import fc from 'fast-check';
import { OBJECT_NAME_MAX_BYTES, normaliseListPrefix, normaliseObjectPath } from './storage-path.js';

describe('object path normalisation (SPEC "Upload path")', () => {
  it.each([
    ['a.txt', 'a.txt'],
    ['/a/b.txt/', 'a/b.txt'],
    ['//a///b//c.png', 'a/b/c.png'],
    ['folder/ünïcode.txt', 'folder/ünïcode.txt'],
    ['Cafe\u0301.txt', 'Café.txt'],
    ['with space/and-dash_1.txt', 'with space/and-dash_1.txt'],
  ])('%j → %j', (raw, name) => {
    expect(normaliseObjectPath(raw)).toEqual({ ok: true, value: name });
  });

  it.each([
    ['', 'empty'],
    ['///', 'only slashes'],
    ['../secret', 'a parent step'],
    ['a/../../b', 'a parent step inside'],
    ['a/./b', 'a current-folder step'],
    ['a\u0000b', 'NUL'],
    ['a\nb', 'a new line'],
    ['a\u007fb', 'DEL'],
    ['a\\b', 'a backslash'],
    ['evil\u202Etxt.exe', 'a right-to-left override'],
    ['in\u200Bvisible', 'a zero-width space'],
    ['\uFEFFbom', 'a byte-order mark'],
    ['x'.repeat(OBJECT_NAME_MAX_BYTES + 1), 'too long'],
    ['é'.repeat(513), 'too long in bytes'],
    ['\uD800', 'a lone surrogate'],
  ])('refuses %j (%s) with a clear 400', (raw) => {
    const result = normaliseObjectPath(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.status).toBe(400);
      expect(result.error.message).toMatch(/object path/);
    }
  });

  it('accepts a name of exactly 1024 bytes', () => {
    expect(normaliseObjectPath('x'.repeat(OBJECT_NAME_MAX_BYTES)).ok).toBe(true);
  });

  it('lists the top level for an empty prefix or slashes', () => {
    expect(normaliseListPrefix(undefined)).toEqual({ ok: true, value: '' });
    expect(normaliseListPrefix('/')).toEqual({ ok: true, value: '' });
    expect(normaliseListPrefix('/photos/')).toEqual({ ok: true, value: 'photos' });
    expect(normaliseListPrefix('../x').ok).toBe(false);
  });
});

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
        expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(OBJECT_NAME_MAX_BYTES);
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
