import { describe, expect, it } from '@jest/globals';
import type { TrackingEvent } from '@kiln/domain';
import { RecordingGtag } from '../../testing/analytics-fakes';
import { SteppedTimers } from '../../testing/billing-fakes';
import { Ga4AnalyticsSink } from './ga4-sink';

const GA4 = { measurementId: 'G-TEST1234', scriptOrigin: 'https://gtm.test' };
const pageView: TrackingEvent = { kind: 'custom', name: 'page_view', properties: { page_path: '/pricing' } };

function setup() {
  const gtag = new RecordingGtag();
  const timers = new SteppedTimers(Date.parse('2026-11-26T10:00:00.000Z'));
  return { gtag, timers, sink: new Ga4AnalyticsSink(gtag, timers) };
}

describe('Ga4AnalyticsSink (Google tag, SPEC §9: loaded after 1 s)', () => {
  it("configures the measurement id once, queues events, and adds gtag.js only after 1 s", async () => {
    const { gtag, timers, sink } = setup();
    await sink.track(pageView, GA4);
    await sink.track({ kind: 'custom', name: 'Login', properties: { method: 'password' } }, GA4);
    expect(gtag.calls).toEqual([
      ['js', new Date('2026-11-26T10:00:00.000Z')],
      ['config', 'G-TEST1234', { send_page_view: false }],
      ['event', 'page_view', { page_path: '/pricing' }],
      ['event', 'Login', { method: 'password' }],
    ]);
    await timers.advance(999);
    expect(gtag.scripts).toEqual([]);
    await timers.advance(1);
    expect(gtag.scripts).toEqual(['https://gtm.test/gtag/js?id=G-TEST1234']);
    await sink.track(pageView, GA4);
    await timers.advance(5000);
    expect(gtag.scripts).toHaveLength(1);
  });

  it("sends purchases with GA4's value, currency and items", async () => {
    const { gtag, sink } = setup();
    await sink.track({ kind: 'purchase', name: 'purchase', planId: 'pro_annual', planName: 'Pro Annual', planPrice: 240, currency: 'INR' }, GA4);
    expect(gtag.calls.at(-1)).toEqual([
      'event',
      'purchase',
      { value: 240, currency: 'INR', items: [{ item_id: 'pro_annual', item_name: 'Pro Annual', price: 240, quantity: 1 }] },
    ]);
  });

  it('sends page events with category, action, label and value', async () => {
    const { gtag, sink } = setup();
    await sink.track({ kind: 'page', name: 'click', category: 'builder', action: 'publish', label: 'header', value: 2 }, GA4);
    await sink.track({ kind: 'page', name: 'click', category: 'builder', action: 'share' }, GA4);
    expect(gtag.calls.slice(-2)).toEqual([
      ['event', 'click', { event_category: 'builder', event_action: 'publish', event_label: 'header', value: 2 }],
      ['event', 'click', { event_category: 'builder', event_action: 'share' }],
    ]);
  });
});
