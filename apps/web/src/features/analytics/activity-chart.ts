import type { DailyActivityDto } from '../../api/analytics.api';

export type ActivitySeriesKey = 'page_views' | 'signups' | 'prompts';

export const ACTIVITY_SERIES: readonly { readonly key: ActivitySeriesKey; readonly label: string; readonly colorClass: string }[] = [
  { key: 'page_views', label: 'Page views', colorClass: 'text-sky-500' },
  { key: 'signups', label: 'Sign-ups', colorClass: 'text-emerald-500' },
  { key: 'prompts', label: 'Prompts', colorClass: 'text-amber-500' },
];

export interface ChartLine {
  readonly key: ActivitySeriesKey;
  /** SVG polyline points, "x,y x,y …", in the chart's viewBox. */
  readonly points: string;
}

export interface ChartGeometry {
  readonly width: number;
  readonly height: number;
  /** The value at the top of the chart (a round number ≥ the largest value, at least 1). */
  readonly top: number;
  readonly lines: readonly ChartLine[];
}

/** 1, 2, 5, 10, 20, 50 … : the smallest such number ≥ value, so the axis reads well. */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * One polyline per series over a shared scale: the first day at x = 0, the last at x = width,
 * 0 at the bottom (y = height) and `top` at y = 0. A single day is drawn as a flat segment.
 */
export function chartGeometry(days: readonly DailyActivityDto[], width = 600, height = 200): ChartGeometry {
  const top = niceCeiling(Math.max(0, ...days.flatMap((d) => ACTIVITY_SERIES.map((s) => d[s.key]))));
  const x = (i: number) => (days.length <= 1 ? [0, width][i] ?? 0 : (i * width) / (days.length - 1));
  const y = (v: number) => height - (v / top) * height;
  const round = (n: number) => Math.round(n * 100) / 100;
  const lines = ACTIVITY_SERIES.map(({ key }) => {
    const values = days.length === 1 ? [days[0]?.[key] ?? 0, days[0]?.[key] ?? 0] : days.map((d) => d[key]);
    return { key, points: values.map((v, i) => `${round(x(i))},${round(y(v))}`).join(' ') };
  });
  return { width, height, top, lines };
}
