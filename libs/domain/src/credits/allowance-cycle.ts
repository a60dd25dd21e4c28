/**
 * Monthly allowance cycles run from an anchor (sign-up for the free plan, the billing cycle
 * start for paid plans) in calendar months, in UTC. A cycle that would start on a day the
 * month lacks (31 Jan → February) starts on that month's last day instead.
 */
export interface CycleWindow {
  readonly start: Date;
  readonly end: Date;
}

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The anchor moved by `months` calendar months, its day clamped to the target month. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The cycle [start, end) that contains `now`; before the anchor, the first cycle. */
export function cycleContaining(anchor: Date, now: Date): CycleWindow {
  if (now.getTime() < anchor.getTime()) return { start: anchor, end: addMonthsClamped(anchor, 1) };
  let k =
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  // The month difference can overshoot by one when `now` is earlier in its month than the anchor.
  if (addMonthsClamped(anchor, k).getTime() > now.getTime()) k -= 1;
  return { start: addMonthsClamped(anchor, k), end: addMonthsClamped(anchor, k + 1) };
}

