import { inject, injectable } from 'inversify';
import type { AnalyticsApi } from '../../api/analytics.api';
import { type Logger, UI_TYPES } from '../../app/ui-ports';

export interface Ga4Settings {
  readonly measurementId: string;
  /** e.g. https://www.googletagmanager.com (gtag.js is `${scriptOrigin}/gtag/js?id=…`). */
  readonly scriptOrigin: string;
}

export interface AnalyticsRuntimeSettings {
  readonly ga4: Ga4Settings | null;
  readonly enabledOnLocalhost: boolean;
}

/** What the web does while the server's settings are unknown or unreachable: Kiln only, not from localhost. */
export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsRuntimeSettings = { ga4: null, enabledOnLocalhost: false };

/**
 * The analytics settings the API serves at run time (GA4_MEASUREMENT_ID, GA4_SCRIPT_ORIGIN,
 * ANALYTICS_ON_LOCALHOST), asked once. One built web app serves every deployment, so they are
 * not baked in at build time. A failed request is logged and the defaults apply (SPEC §8).
 */
@injectable()
export class AnalyticsSettings {
  private loading: Promise<AnalyticsRuntimeSettings> | null = null;

  constructor(
    @inject(UI_TYPES.AnalyticsApi) private readonly api: AnalyticsApi,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {}

  load(): Promise<AnalyticsRuntimeSettings> {
    this.loading ??= this.api.settings().then(
      (dto) => ({
        ga4: dto.ga4_measurement_id && dto.ga4_script_origin ? { measurementId: dto.ga4_measurement_id, scriptOrigin: dto.ga4_script_origin } : null,
        enabledOnLocalhost: dto.enabled_on_localhost === true,
      }),
      (error: unknown) => {
        this.logger.warn('Analytics settings could not be loaded', error);
        return DEFAULT_ANALYTICS_SETTINGS;
      },
    );
    return this.loading;
  }
}
