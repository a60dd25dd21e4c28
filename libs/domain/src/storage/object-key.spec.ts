import { describe, expect, it } from '@jest/globals';
import { InvalidObjectKey, assertObjectKey, objectKey, objectKeyError } from './object-key.js';

describe('object keys', () => {
  it.each(['a', 'abcdefghij0123456789/avatars/0f8fad5b-d9cb-469f-a165-70867728950e', 'x/y.z/a_b-c', 'tmp/file.tar.gz'])('accepts %s', (key) => {
    expect(objectKeyError(key)).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['..', 'a parent step'],
    ['a/../b', 'a parent step inside'],
    ['a/./b', 'a current-folder step'],
    ['/a', 'a leading slash'],
    ['a/', 'a trailing slash'],
    ['a//b', 'an empty segment'],
    ['A/b', 'upper case'],
    ['a\u0000b', 'NUL'],
    ['a\\b', 'a backslash'],
    ['.hidden', 'a leading dot'],
    ['a./b', 'a trailing dot'],
    ['ａ', 'a full-width letter'],
    ['a b', 'a space'],
    ['x'.repeat(513), 'too long'],
  ])('refuses %j (%s)', (key) => {
    expect(objectKeyError(key)).not.toBeNull();
    expect(() => assertObjectKey(key)).toThrow(InvalidObjectKey);
  });

  it('joins segments', () => {
    expect(objectKey('ref', 'bucket', 'id')).toBe('ref/bucket/id');
    expect(() => objectKey('ref', '..', 'id')).toThrow(InvalidObjectKey);
  });
});
