import { describe, expect, it } from '@jest/globals';
import { base32Encode, checkTotp, timeStep } from '@kiln/domain';
import { TOTP } from 'otpauth';
import { OtpauthTotpCodeGenerator } from './otpauth-totp-code-generator.adapter.js';

const generator = new OtpauthTotpCodeGenerator();
// RFC 6238 appendix B: the SHA-1 seed is the ASCII of "12345678901234567890".
const RFC_SECRET = base32Encode([...'12345678901234567890'].map((c) => c.charCodeAt(0)));

describe('OtpauthTotpCodeGenerator', () => {
  it('computes the RFC 6238 SHA-1 test vectors (last six of the eight digits)', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, eightDigits] of vectors) {
      expect(generator.codeAt(RFC_SECRET, timeStep(new Date(seconds * 1000)))).toBe(eightDigits.slice(2));
    }
  });

  it('agrees with an authenticator app (otpauth TOTP) reading the same secret, through the domain check', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const now = new Date('2026-11-26T23:00:05Z');
    const app = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });
    expect(checkTotp(generator, { secret, code: app.generate({ timestamp: now.getTime() }), now, lastUsedStep: null })).toEqual({
      kind: 'accepted',
      step: timeStep(now),
    });
  });
});
