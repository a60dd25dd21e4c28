import { PAGE_VIEW_EVENT_NAME } from './tracking-event.js';
import type { DailyEventCount } from './analytics-event-store.port.js';
import { PROMPT_EVENT_NAME } from './recorded-event.js';

/** The web's sign-up event (SPEC §7 'Signup'), sent once a new account is verified. */
export const SIGNUP_EVENT_NAME = 'Signup';

/** One UTC day of the operators' chart. */
export interface DailyActivity {
  /** 'YYYY-MM-DD' (UTC). */
  readonly day: string;
  readonly pageViews: number;
  readonly signups: number;
  readonly prompts: number;
}

/** The event names each chart series counts. */
export const ACTIVITY_EVENT_NAMES = [PAGE_VIEW_EVENT_NAME, SIGNUP_EVENT_NAME, PROMPT_EVENT_NAME] as const;

export const MIN_ACTIVITY_DAYS = 1;
export const MAX_ACTIVITY_DAYS = 90;
export const DEFAULT_ACTIVITY_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The [from, to) window of the last `days` UTC days, today included. */
export function activityWindow(now: Date, days: number): { readonly from: Date; readonly to: Date } {
  const startOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: new Date(startOfToday - (days - 1) * DAY_MS), to: new Date(startOfToday + DAY_MS) };
}

/** Every day of the window, oldest first, with zeros where nothing happened. */
export function dailyActivity(window: { readonly from: Date; readonly to: Date }, counts: readonly DailyEventCount[]): DailyActivity[] {
  const days: DailyActivity[] = [];
  for (let t = window.from.getTime(); t < window.to.getTime(); t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    const count = (name: string) => counts.filter((c) => c.day === day && c.name === name).reduce((sum, c) => sum + c.count, 0);
    days.push({ day, pageViews: count(PAGE_VIEW_EVENT_NAME), signups: count(SIGNUP_EVENT_NAME), prompts: count(PROMPT_EVENT_NAME) });
  }
  return days;
}
