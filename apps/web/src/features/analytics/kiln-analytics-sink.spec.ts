import { describe, expect, it } from '@jest/globals';
import type { TrackingEvent } from '@kiln/domain';
import { FakeAnalyticsApi, ManualPageExit, RecordingGtag } from '../../testing/analytics-fakes';
import { SteppedTimers } from '../../testing/billing-fakes';
import { RecordingLogger, environment } from '../../testing/ui-fakes';
import { AnalyticsSettings } from './analytics-settings';
import { FIRST_PARTY_BATCH_MS, FirstPartyAnalyticsSink } from './first-party-sink';
import { Ga4AnalyticsSink } from './ga4-sink';
import { KilnAnalyticsSink } from './kiln-analytics-sink';

const login: TrackingEvent = { kind: 'custom', name: 'Login', properties: {} };

function setup() {
  const api = new FakeAnalyticsApi();
  const gtag = new RecordingGtag();
  const timers = new SteppedTimers();
  const logger = new RecordingLogger();
  const settings = new AnalyticsSettings(api, logger);
  const sink = new KilnAnalyticsSink(settings, new FirstPartyAnalyticsSink(api, timers, logger, new ManualPageExit()), new Ga4AnalyticsSink(gtag, timers), environment());
  return { api, gtag, timers, logger, sink };
}

describe('KilnAnalyticsSink: Kiln always, GA4 when the API names a measurement id', () => {
  it('without GA4 settings, events go to Kiln only and no script is added', async () => {
    const { api, gtag, timers, sink } = setup();
    await sink.track(login);
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(api.batches).toEqual([[login]]);
    expect(gtag.calls).toEqual([]);
    expect(gtag.scripts).toEqual([]);
  });

  it('with GA4 settings, events go to both; the settings are asked once', async () => {
    const { api, gtag, timers, sink } = setup();
    api.settingsDto = { ga4_measurement_id: 'G-TEST1234', ga4_script_origin: 'https://gtm.test', enabled_on_localhost: false };
    await sink.track(login);
    await sink.track(login);
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(api.batches).toEqual([[login, login]]);
    expect(gtag.calls.filter((c) => c[0] === 'event')).toEqual([
      ['event', 'Login', {}],
      ['event', 'Login', {}],
    ]);
    expect(gtag.scripts).toEqual(['https://gtm.test/gtag/js?id=G-TEST1234']);
    expect(api.settingsCalls).toBe(1);
  });

  it('unreachable settings are logged and Kiln still gets the events', async () => {
    const { api, gtag, timers, logger, sink } = setup();
    api.settings = async () => {
      throw new Error('offline');
    };
    await sink.track(login);
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(logger.lines).toEqual(['warn: Analytics settings could not be loaded']);
    expect(api.batches).toEqual([[login]]);
    expect(gtag.calls).toEqual([]);
  });
});
