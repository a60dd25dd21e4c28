import { describe, expect, it } from '@jest/globals';
import { FakeTotpCodeGenerator } from '../testing/mfa/fake-totp.js';
import { base32Encode } from './base32.js';
import { checkTotp, timeStep } from './totp.js';

const totp = new FakeTotpCodeGenerator();
const SECRET = 'JBSWY3DPEHPK3PXP';
const now = new Date('2026-01-15T10:00:10.000Z');
const step = timeStep(now);

describe('checkTotp', () => {
  it('accepts the code of the current step and of one step either side, and says which step', () => {
    for (const offset of [-1, 0, 1]) {
      expect(checkTotp(totp, { secret: SECRET, code: totp.codeAt(SECRET, step + offset), now, lastUsedStep: null })).toEqual({
        kind: 'accepted',
        step: step + offset,
      });
    }
  });

  it('rejects codes two steps away, of another secret, or not six digits', () => {
    for (const code of [totp.codeAt(SECRET, step - 2), totp.codeAt(SECRET, step + 2), totp.codeAt('OTHERSECRET', step), '12345', '1234567', 'abcdef', '']) {
      expect(checkTotp(totp, { secret: SECRET, code, now, lastUsedStep: null })).toEqual({ kind: 'rejected' });
    }
  });

  it('refuses a code of a step already used, or older (replay), and takes a newer one', () => {
    const code = totp.codeAt(SECRET, step);
    expect(checkTotp(totp, { secret: SECRET, code, now, lastUsedStep: step })).toEqual({ kind: 'replayed' });
    expect(checkTotp(totp, { secret: SECRET, code: totp.codeAt(SECRET, step - 1), now, lastUsedStep: step })).toEqual({ kind: 'replayed' });
    expect(checkTotp(totp, { secret: SECRET, code: totp.codeAt(SECRET, step + 1), now, lastUsedStep: step })).toEqual({ kind: 'accepted', step: step + 1 });
  });

  it('uses 30-second steps from the Unix epoch (RFC 6238 T)', () => {
    expect(timeStep(new Date(59_000))).toBe(1);
    expect(timeStep(new Date(60_000))).toBe(2);
    expect(timeStep(new Date('2005-03-18T01:58:29Z'))).toBe(0x23523ec);
  });
});

describe('base32Encode', () => {
  it('writes RFC 4648 base32 without padding', () => {
    const bytes = (text: string) => [...text].map((c) => c.charCodeAt(0));
    expect(base32Encode(bytes(''))).toBe('');
    expect(base32Encode(bytes('f'))).toBe('MY');
    expect(base32Encode(bytes('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(bytes('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });
});
