import { describe, expect, it } from '@jest/globals';
import { normalizeUploadPath } from './upload-path.js';

describe('normalizeUploadPath (SPEC §5)', () => {
  it.each([
    ['avatars/me.png', 'avatars/me.png'],
    ['/avatars/me.png', 'avatars/me.png'],
    ['avatars/me.png/', 'avatars/me.png'],
    ['///avatars///me.png//', 'avatars/me.png'],
    ['a//b///c', 'a/b/c'],
    ['me.png', 'me.png'],
    ['/', ''],
    ['////', ''],
    ['', ''],
  ])('%p → %p', (raw, normalized) => {
    expect(normalizeUploadPath(raw)).toBe(normalized);
  });

  it('leaves everything other than slashes alone (spaces, dots, backslashes)', () => {
    expect(normalizeUploadPath('/my files/./a\\b.txt')).toBe('my files/./a\\b.txt');
  });
});
