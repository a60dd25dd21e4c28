// Kiln's first-party analytics (issue #17): the web's runtime analytics settings, batches of
// validated events, and the operators' daily activity.
import type { TrackingEvent } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type HttpClient, TYPES } from '../app/ports';

export interface AnalyticsSettingsDto {
  /** GA4 measurement id (G-…); null: events go to Kiln only. */
  readonly ga4_measurement_id: string | null;
  /** Where gtag.js is loaded from (Google's origin unless configured otherwise). */
  readonly ga4_script_origin: string | null;
  /** SPEC §5: the server allows sending analytics from localhost. */
  readonly enabled_on_localhost: boolean;
}

export interface DailyActivityDto {
  readonly day: string;
  readonly page_views: number;
  readonly signups: number;
  readonly prompts: number;
}

export interface AnalyticsApi {
  settings(): Promise<AnalyticsSettingsDto>;
  /** One batch (at most MAX_EVENTS_PER_BATCH) of validated events; `leaving`: the page is being left (keepalive). */
  send(events: readonly TrackingEvent[], options?: { readonly leaving?: boolean }): Promise<void>;
  /** Operators only (403 otherwise): the last `days` UTC days, oldest first. */
  dailyActivity(days: number): Promise<readonly DailyActivityDto[]>;
}

@injectable()
export class HttpAnalyticsApi implements AnalyticsApi {
  constructor(@inject(TYPES.Http) private readonly http: HttpClient) {}

  settings(): Promise<AnalyticsSettingsDto> {
    return this.http.get<AnalyticsSettingsDto>('/api/analytics/config', { anonymous: true });
  }

  async send(events: readonly TrackingEvent[], options: { readonly leaving?: boolean } = {}): Promise<void> {
    // The bearer token (when signed in) names the sender; analytics are never retried (SPEC §8: only logged).
    await this.http.post('/api/analytics/events', { events }, { retry: false, ...(options.leaving ? { keepalive: true } : {}) });
  }

  async dailyActivity(days: number): Promise<readonly DailyActivityDto[]> {
    return (await this.http.get<{ days: DailyActivityDto[] }>(`/api/analytics/daily-activity?days=${days}`)).days;
  }
}
