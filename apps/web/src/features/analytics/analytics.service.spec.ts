import { describe, expect, it } from '@jest/globals';
import type { Analytics } from '../../app/ports';
import { RecordingLogger, RecordingSink, analyticsSettings, environment, flush } from '../../testing/ui-fakes';
import { AnalyticsService, PageViews } from './analytics.service';

function setup(env = environment(), sink = new RecordingSink(), settings = analyticsSettings()) {
  const logger = new RecordingLogger();
  return { sink, logger, analytics: new AnalyticsService(sink, env, logger, settings) };
}

describe('AnalyticsService (SPEC §5, §7)', () => {
  it('sends page views as page_view events with the path', async () => {
    const { analytics, sink } = setup();
    analytics.pageView('/pricing');
    await flush();
    expect(sink.events).toEqual([{ kind: 'custom', name: 'page_view', properties: { page_path: '/pricing' } }]);
  });

  it('is skipped on localhost unless enabled', async () => {
    for (const hostname of ['localhost', '127.0.0.1', 'app.localhost']) {
      const { analytics, sink } = setup(environment({ hostname }));
      analytics.pageView('/');
      analytics.track('Login');
      await flush();
      expect(analytics.enabled).toBe(false);
      expect(sink.events).toEqual([]);
    }
  });

  it('sends from localhost when enabled there', async () => {
    const { analytics, sink } = setup(environment({ hostname: 'localhost', analyticsOnLocalhost: true }));
    analytics.track('Signup');
    await flush();
    expect(sink.events.map((e) => e.name)).toEqual(['Signup']);
  });

  it('sends from localhost when the API enables it at run time (ANALYTICS_ON_LOCALHOST)', async () => {
    const { analytics, sink } = setup(environment({ hostname: 'localhost' }), new RecordingSink(), analyticsSettings({ enabledOnLocalhost: true }));
    analytics.pageView('/');
    analytics.track('Login');
    await flush();
    expect(analytics.enabled).toBe(true);
    expect(sink.events.map((e) => e.name)).toEqual(['page_view', 'Login']);
  });

  it('refuses an event without a name and logs why', async () => {
    const { analytics, sink, logger } = setup();
    analytics.track('   ');
    await flush();
    expect(sink.events).toEqual([]);
    expect(logger.lines).toEqual(['warn: Analytics event refused: Tracking events need a non-empty event name']);
  });

  it('keeps only values an analytics service can carry', async () => {
    const { analytics, sink } = setup();
    analytics.track('Subscription ChangePlan', { plan_id: 'pro_monthly', price: 25, ok: true, none: null, nested: { a: 1 }, nan: Number.NaN });
    await flush();
    expect(sink.events[0]).toEqual({
      kind: 'custom',
      name: 'Subscription ChangePlan',
      properties: { plan_id: 'pro_monthly', price: 25, ok: true, none: null },
    });
  });

  it('sends purchases as validated purchase events (planId, planName, numeric planPrice)', async () => {
    const { analytics, sink, logger } = setup();
    analytics.purchase({ planId: ' pro_monthly ', planName: 'Pro Monthly', planPrice: 25, currency: 'USD' });
    analytics.purchase({ planId: 'pro_annual', planName: 'Pro Annual', planPrice: '240' as unknown as number });
    analytics.purchase({ planId: '', planName: 'Pro Annual', planPrice: 240 });
    await flush();
    expect(sink.events).toEqual([{ kind: 'purchase', name: 'purchase', planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: 25, currency: 'USD' }]);
    expect(logger.lines).toEqual([
      'warn: Analytics event refused: Purchase tracking needs a numeric planPrice',
      'warn: Analytics event refused: Purchase tracking needs a planId',
    ]);
  });

  it('only logs a failing analytics service', async () => {
    const { analytics, logger } = setup(environment(), new RecordingSink(true));
    analytics.pageView('/');
    await flush();
    expect(logger.lines).toEqual(['warn: Analytics event failed']);
  });
});

describe('PageViews', () => {
  it('reports one page view per navigation, even when told twice', () => {
    const paths: string[] = [];
    const analytics: Analytics = { pageView: (p) => paths.push(p), track: () => undefined, purchase: () => undefined };
    const pageViews = new PageViews(analytics);

    pageViews.record('k1', '/');
    pageViews.record('k1', '/');
    pageViews.record('k2', '/pricing');
    pageViews.record('k3', '/');

    expect(paths).toEqual(['/', '/pricing', '/']);
  });
});
