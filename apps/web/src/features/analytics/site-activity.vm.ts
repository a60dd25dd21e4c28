import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import type { AnalyticsApi, DailyActivityDto } from '../../api/analytics.api';
import { ApiError } from '../../app/ports';
import { type Logger, UI_TYPES } from '../../app/ui-ports';
import { ACTIVITY_SERIES, type ActivitySeriesKey, type ChartGeometry, chartGeometry } from './activity-chart';

export const ACTIVITY_RANGES = [7, 30, 90] as const;
export type ActivityRange = (typeof ACTIVITY_RANGES)[number];

export type SiteActivityStatus = 'loading' | 'ready' | 'forbidden' | 'error';

/**
 * The operators' page (/operators/activity): daily page views, sign-ups and prompts of the last
 * 7, 30 or 90 days, from GET /api/analytics/daily-activity. Anyone else is told it is for
 * operators (the API answers 403).
 */
@injectable()
export class SiteActivityVm {
  status: SiteActivityStatus = 'loading';
  range: ActivityRange = 30;
  days: readonly DailyActivityDto[] = [];
  private request = 0;

  constructor(
    @inject(UI_TYPES.AnalyticsApi) private readonly api: AnalyticsApi,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<SiteActivityVm, 'api' | 'logger' | 'request'>(this, { api: false, logger: false, request: false }, { autoBind: true });
  }

  get chart(): ChartGeometry {
    return chartGeometry(this.days);
  }

  /** Each series' total over the range, for the legend. */
  get totals(): Readonly<Record<ActivitySeriesKey, number>> {
    const sum = (key: ActivitySeriesKey) => this.days.reduce((total, d) => total + d[key], 0);
    return Object.fromEntries(ACTIVITY_SERIES.map((s) => [s.key, sum(s.key)])) as Record<ActivitySeriesKey, number>;
  }

  async load(range: ActivityRange = this.range): Promise<void> {
    const request = ++this.request;
    this.range = range;
    this.status = 'loading';
    try {
      const days = await this.api.dailyActivity(range);
      if (request !== this.request) return; // a newer range was asked meanwhile
      runInAction(() => {
        this.days = days;
        this.status = 'ready';
      });
    } catch (error) {
      if (request !== this.request) return;
      if (!(error instanceof ApiError && error.status === 403)) this.logger.warn('Site activity could not be loaded', error);
      runInAction(() => {
        this.status = error instanceof ApiError && error.status === 403 ? 'forbidden' : 'error';
      });
    }
  }
}
