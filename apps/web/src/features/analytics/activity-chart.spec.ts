import { describe, expect, it } from '@jest/globals';
import { activityDay } from '../../testing/analytics-fakes';
import { chartGeometry, niceCeiling } from './activity-chart';

describe('activity chart geometry', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [12, 20],
    [50, 50],
    [51, 100],
    [999, 1000],
  ])('rounds the top of %p up to %p', (value, top) => {
    expect(niceCeiling(value)).toBe(top);
  });

  it('draws each series from the first day (x 0) to the last (x width), 0 at the bottom', () => {
    const chart = chartGeometry([activityDay('2026-11-24', 10, 1, 0), activityDay('2026-11-25', 5, 0, 2), activityDay('2026-11-26', 0, 2, 10)], 600, 200);
    expect(chart.top).toBe(10);
    expect(chart.lines).toEqual([
      { key: 'page_views', points: '0,0 300,100 600,200' },
      { key: 'signups', points: '0,180 300,200 600,160' },
      { key: 'prompts', points: '0,200 300,160 600,0' },
    ]);
  });

  it('draws a single day as a flat segment, and no days as nothing', () => {
    expect(chartGeometry([activityDay('2026-11-26', 4, 0, 0)], 600, 200).lines[0]).toEqual({ key: 'page_views', points: '0,40 600,40' });
    expect(chartGeometry([], 600, 200).lines.map((l) => l.points)).toEqual(['', '', '']);
  });
});
