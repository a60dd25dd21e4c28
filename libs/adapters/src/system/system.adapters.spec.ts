import { describe, expect, it } from '@jest/globals';
import { CryptoRandom } from './crypto-random.adapter.js';
import { SystemClock } from './system-clock.adapter.js';
import { UuidIds } from './uuid-ids.adapter.js';

describe('system adapters', () => {
  it('SystemClock tells the current time', () => {
    const before = Date.now();
    const now = new SystemClock().now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('CryptoRandom stays in range and reaches every value', () => {
    const random = new CryptoRandom();
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i += 1) {
      const v = random.nextInt(32);
      expect(Number.isInteger(v) && v >= 0 && v < 32).toBe(true);
      seen.add(v);
    }
    expect(seen.size).toBe(32);
  });

  it('UuidIds gives distinct v4 UUIDs', () => {
    const ids = new UuidIds();
    const a = ids.next();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.next()).not.toBe(a);
  });
});
