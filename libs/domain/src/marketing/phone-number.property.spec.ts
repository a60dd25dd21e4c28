import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { normalizeMarketingPhone } from './phone-number.js';

const phone = fc.oneof(
  fc.stringMatching(/^\s{0,2}(\+|00|0)?[0-9 ()-]{0,15}\s{0,2}$/),
  fc.string(),
);

describe('normalizeMarketingPhone properties', () => {
  it("non-blank input always ends up starting with '+' or '00' and ends with the trimmed input", () => {
    fc.assert(
      fc.property(
        phone.filter((p) => p.trim() !== ''),
        (p) => {
          const n = normalizeMarketingPhone(p);
          expect(n === null).toBe(false);
          expect(n?.startsWith('+') || n?.startsWith('00')).toBe(true);
          expect(n?.endsWith(p.trim())).toBe(true);
        },
      ),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(phone, (p) => {
        const once = normalizeMarketingPhone(p);
        expect(normalizeMarketingPhone(once)).toBe(once);
      }),
    );
  });
});
