import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { addMonthsClamped, cycleContaining } from './allowance-cycle.js';

const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }).map((ms) => new Date(ms));

describe('allowance cycles', () => {
  it('the cycle containing now really contains it and lasts one calendar month from the anchor', () => {
    fc.assert(
      fc.property(instant, instant, (anchor, now) => {
        const { start, end } = cycleContaining(anchor, now);
        expect(end.getTime()).toBeGreaterThan(start.getTime());
        if (now.getTime() >= anchor.getTime()) {
          expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(now.getTime()).toBeLessThan(end.getTime());
          expect(start.getTime()).toBeGreaterThanOrEqual(anchor.getTime());
        } else {
          expect(start).toEqual(anchor);
        }
        // Calendar months: end is never more than 31 days after start, never fewer than 28.
        const days = (end.getTime() - start.getTime()) / 86_400_000;
        expect(days).toBeGreaterThanOrEqual(28);
        expect(days).toBeLessThanOrEqual(31);
      }),
    );
  });

  it('consecutive cycles tile time: the next cycle starts where this one ends', () => {
    fc.assert(
      fc.property(instant, instant, (anchor, now) => {
        const current = cycleContaining(anchor, now);
        const next = cycleContaining(anchor, current.end);
        expect(next.start).toEqual(current.end);
      }),
    );
  });

  it('clamps to the last day of shorter months and returns to the anchor day after', () => {
    const anchor = new Date('2026-01-31T08:30:00Z');
    expect(addMonthsClamped(anchor, 1)).toEqual(new Date('2026-02-28T08:30:00Z'));
    expect(addMonthsClamped(anchor, 2)).toEqual(new Date('2026-03-31T08:30:00Z'));
    expect(addMonthsClamped(new Date('2027-12-31T00:00:00Z'), 2)).toEqual(new Date('2028-02-29T00:00:00Z'));
    expect(cycleContaining(anchor, new Date('2026-03-01T00:00:00Z'))).toEqual({
      start: new Date('2026-02-28T08:30:00Z'),
      end: new Date('2026-03-31T08:30:00Z'),
    });
  });

  it('runs monthly from sign-up: a user who signed up on the 15th renews on the 15th', () => {
    const anchor = new Date('2026-01-15T10:00:00Z');
    expect(cycleContaining(anchor, new Date('2026-01-15T10:00:00Z')).start).toEqual(anchor);
    expect(cycleContaining(anchor, new Date('2026-02-15T09:59:59Z')).end).toEqual(new Date('2026-02-15T10:00:00Z'));
    expect(cycleContaining(anchor, new Date('2026-02-15T10:00:00Z')).start).toEqual(new Date('2026-02-15T10:00:00Z'));
  });
});
