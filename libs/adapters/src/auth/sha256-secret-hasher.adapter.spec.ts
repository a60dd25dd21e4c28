import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PureSha256SecretHasher } from '@kiln/domain/testing';
import { Sha256SecretHasher } from './sha256-secret-hasher.adapter.js';

describe('Sha256SecretHasher', () => {
  it('is SHA-256 as lower-case hex', () => {
    expect(new Sha256SecretHasher().digest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('agrees with the in-memory hasher the domain tests use, for any text', () => {
    const node = new Sha256SecretHasher();
    const pure = new PureSha256SecretHasher();
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(pure.digest(text)).toBe(node.digest(text));
      }),
      { numRuns: 500 },
    );
  });
});
