import { describe, expect, it } from '@jest/globals';
import type { TrackingEvent } from '@kiln/domain';
import { FakeAnalyticsApi, ManualPageExit } from '../../testing/analytics-fakes';
import { SteppedTimers } from '../../testing/billing-fakes';
import { RecordingLogger } from '../../testing/ui-fakes';
import { FIRST_PARTY_BATCH_MS, FirstPartyAnalyticsSink } from './first-party-sink';

const view = (path: string): TrackingEvent => ({ kind: 'custom', name: 'page_view', properties: { page_path: path } });

function setup() {
  const api = new FakeAnalyticsApi();
  const timers = new SteppedTimers();
  const logger = new RecordingLogger();
  const page = new ManualPageExit();
  return { api, timers, logger, page, sink: new FirstPartyAnalyticsSink(api, timers, logger, page) };
}

describe('FirstPartyAnalyticsSink (POST /api/analytics/events)', () => {
  it('sends the events of one second together, in order', async () => {
    const { api, timers, sink } = setup();
    await sink.track(view('/'));
    await sink.track({ kind: 'custom', name: 'Login', properties: {} });
    expect(api.batches).toEqual([]);
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(api.batches).toEqual([[view('/'), { kind: 'custom', name: 'Login', properties: {} }]]);
    await sink.track(view('/pricing'));
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(api.batches).toHaveLength(2);
    expect(api.batches[1]).toEqual([view('/pricing')]);
  });

  it('sends at once when a batch is full (25 events, what the API accepts)', async () => {
    const { api, sink } = setup();
    for (let i = 0; i < 25; i += 1) await sink.track(view(`/p${i}`));
    expect(api.batches.map((b) => b.length)).toEqual([25]);
  });

  it('only logs a batch the API refused or could not take (SPEC §8)', async () => {
    const { api, timers, logger, sink } = setup();
    api.failSending = true;
    await sink.track(view('/'));
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(logger.lines).toEqual(['warn: Analytics events could not be sent']);
  });

  it('sends what waits when the page is left (keepalive), not twice', async () => {
    const { api, timers, page, sink } = setup();
    await sink.track({ kind: 'custom', name: 'Subscription ChangePlan', properties: { plan_id: 'pro_monthly' } });
    page.leave();
    await timers.advance(FIRST_PARTY_BATCH_MS);
    expect(api.leavingBatches).toEqual([[{ kind: 'custom', name: 'Subscription ChangePlan', properties: { plan_id: 'pro_monthly' } }]]);
    expect(api.batches).toEqual([]);
    page.leave();
    expect(api.leavingBatches).toHaveLength(1);
  });
});
