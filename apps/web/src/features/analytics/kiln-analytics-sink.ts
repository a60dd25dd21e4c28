import type { Analytics as AnalyticsSink, TrackingEvent } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { type BrowserEnvironment, UI_TYPES } from '../../app/ui-ports';
import { AnalyticsSettings } from './analytics-settings';
import { FirstPartyAnalyticsSink } from './first-party-sink';
import { Ga4AnalyticsSink } from './ga4-sink';

/**
 * Where every validated event goes: always Kiln's own store (the operators' chart), and GA4 too
 * when the server names a measurement id. In development each event is also printed.
 */
@injectable()
export class KilnAnalyticsSink implements AnalyticsSink {
  constructor(
    @inject(AnalyticsSettings) private readonly settings: AnalyticsSettings,
    @inject(FirstPartyAnalyticsSink) private readonly firstParty: FirstPartyAnalyticsSink,
    @inject(Ga4AnalyticsSink) private readonly ga4: Ga4AnalyticsSink,
    @inject(UI_TYPES.Environment) private readonly env: BrowserEnvironment,
  ) {}

  async track(event: TrackingEvent): Promise<void> {
    const settings = await this.settings.load();
    if (this.env.isDevelopment) console.info('[analytics]', event.name, event);
    await Promise.all([this.firstParty.track(event), settings.ga4 === null ? undefined : this.ga4.track(event, settings.ga4)]);
  }
}
