import { describe, expect, it } from '@jest/globals';
import { normalizeMarketingPhone } from './phone-number.js';

describe('normalizeMarketingPhone (SPEC §5)', () => {
  it.each([
    ['5551234567', '+15551234567'],
    ['(555) 123-4567', '+1(555) 123-4567'],
    ['0555123456', '+10555123456'],
    ['+919876543210', '+919876543210'],
    ['+1 555 123 4567', '+1 555 123 4567'],
    ['00919876543210', '00919876543210'],
    ['  5551234567  ', '+15551234567'],
    [' +44 20 7946 0958\n', '+44 20 7946 0958'],
  ])('%p → %p', (raw, normalized) => {
    expect(normalizeMarketingPhone(raw)).toBe(normalized);
  });

  it.each([[''], ['   '], ['\t\n'], [null], [undefined]])('treats blank %p as no phone', (raw) => {
    expect(normalizeMarketingPhone(raw)).toBeNull();
  });
});
