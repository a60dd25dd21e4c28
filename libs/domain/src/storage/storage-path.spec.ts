import { describe, expect, it } from '@jest/globals';
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
