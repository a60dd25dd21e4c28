// Test doubles of first-party analytics and the Google tag.
import type { TrackingEvent } from '@kiln/domain';
import type { AnalyticsApi, AnalyticsSettingsDto, DailyActivityDto } from '../api/analytics.api';
import { ApiError } from '../app/ports';
import type { GtagHost, PageExit } from '../app/ui-ports';

export class FakeAnalyticsApi implements AnalyticsApi {
  settingsDto: AnalyticsSettingsDto = { ga4_measurement_id: null, ga4_script_origin: null, enabled_on_localhost: false };
  settingsCalls = 0;
  readonly batches: (readonly TrackingEvent[])[] = [];
  /** The batches sent as the page was left (keepalive). */
  readonly leavingBatches: (readonly TrackingEvent[])[] = [];
  failSending = false;
  /** What dailyActivity answers per range, or an error to throw. */
  activity: (days: number) => Promise<readonly DailyActivityDto[]> = async () => [];
  readonly activityCalls: number[] = [];

  async settings(): Promise<AnalyticsSettingsDto> {
    this.settingsCalls += 1;
    return this.settingsDto;
  }

  async send(events: readonly TrackingEvent[], options: { readonly leaving?: boolean } = {}): Promise<void> {
    if (this.failSending) throw new ApiError('Request failed', 503, null, null);
    (options.leaving ? this.leavingBatches : this.batches).push([...events]);
  }

  dailyActivity(days: number): Promise<readonly DailyActivityDto[]> {
    this.activityCalls.push(days);
    return this.activity(days);
  }
}

/** The Google tag's calls, as gtag.js would find them in window.dataLayer, and the scripts added. */
export class RecordingGtag implements GtagHost {
  readonly calls: unknown[][] = [];
  readonly scripts: string[] = [];
  gtag(...args: unknown[]): void {
    this.calls.push(args);
  }
  loadScript(src: string): void {
    this.scripts.push(src);
  }
}

export const activityDay = (day: string, page_views = 0, signups = 0, prompts = 0): DailyActivityDto => ({ day, page_views, signups, prompts });

/** A page the test leaves by hand. */
export class ManualPageExit implements PageExit {
  private readonly listeners = new Set<() => void>();
  onLeave(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  leave(): void {
    for (const listener of this.listeners) listener();
  }
}
