import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { clampProgress, displayLimit, percentUsed } from './percent.js';

describe('progress and percent used (SPEC §5)', () => {
  it('clamps progress to 0–100', () => {
    expect(clampProgress(-5)).toBe(0);
    expect(clampProgress(140)).toBe(100);
    expect(clampProgress(42.5)).toBe(42.5);
    expect(clampProgress(Number.NaN)).toBe(0);
  });

  it('rounds percent used and caps it at 100', () => {
    expect(percentUsed(1, 3)).toBe(33);
    expect(percentUsed(2, 3)).toBe(67);
    expect(percentUsed(30, 25)).toBe(100);
  });

  it('is 0 when the limit is 0 or less, or unlimited', () => {
    expect(percentUsed(3, 0)).toBe(0);
    expect(percentUsed(3, -1)).toBe(0);
    expect(percentUsed(3, 'unlimited')).toBe(0);
  });

  it('always lies in 0–100 and is a whole number', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.constant('unlimited' as const)), (used, limit) => {
        const p = percentUsed(used, limit);
        expect(Number.isInteger(p)).toBe(true);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(100);
      }),
    );
  });

  it('displays unlimited as ∞', () => {
    expect(displayLimit('unlimited')).toBe('∞');
    expect(displayLimit(-1)).toBe('∞');
    expect(displayLimit(25)).toBe('25');
  });
});
