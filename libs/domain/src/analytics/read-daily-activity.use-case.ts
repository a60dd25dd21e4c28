import type { Clock } from '../shared/clock.port.js';
import type { DomainError } from '../shared/domain-error.js';
import { type Result, err, ok } from '../shared/result.js';
import type { AnalyticsEventStore } from './analytics-event-store.port.js';
import { ACTIVITY_EVENT_NAMES, type DailyActivity, MAX_ACTIVITY_DAYS, MIN_ACTIVITY_DAYS, activityWindow, dailyActivity } from './daily-activity.js';

export type NotAnOperator = DomainError<'ANALYTICS.NOT_AN_OPERATOR'>;
export type InvalidActivityDays = DomainError<'ANALYTICS.INVALID_DAYS'>;

/** The people allowed to read Kiln's own numbers: OPERATOR_EMAILS (SPEC §6 has no admin role). */
export class Operators {
  private readonly emails: ReadonlySet<string>;

  constructor(emails: readonly string[]) {
    this.emails = new Set(emails.map((e) => e.trim().toLowerCase()).filter((e) => e !== ''));
  }

  includes(email: string | null): boolean {
    return email !== null && this.emails.has(email.trim().toLowerCase());
  }
}

/** Daily page views, sign-ups and prompts of the last N UTC days, for operators only. */
export class ReadDailyActivity {
  constructor(
    private readonly store: AnalyticsEventStore,
    private readonly operators: Operators,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly email: string | null; readonly days: number }): Promise<Result<readonly DailyActivity[], NotAnOperator | InvalidActivityDays>> {
    if (!this.operators.includes(input.email)) return err({ code: 'ANALYTICS.NOT_AN_OPERATOR', message: 'Only operators can see site activity' });
    if (!Number.isSafeInteger(input.days) || input.days < MIN_ACTIVITY_DAYS || input.days > MAX_ACTIVITY_DAYS) {
      return err({ code: 'ANALYTICS.INVALID_DAYS', message: `days must be a whole number from ${MIN_ACTIVITY_DAYS} to ${MAX_ACTIVITY_DAYS}` });
    }
    const window = activityWindow(this.clock.now(), input.days);
    return ok(dailyActivity(window, await this.store.dailyCounts(ACTIVITY_EVENT_NAMES, window)));
  }
}
