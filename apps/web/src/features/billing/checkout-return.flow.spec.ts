import { describe, expect, it } from '@jest/globals';
import { FakeProfileApi, RecordingAnalytics, RecordingNavigator } from '../../testing/auth-fakes';
import { FakePaymentsApi, FakePlansApi, FakeUsageApi, PRO_MONTHLY_CURRENT, SteppedTimers } from '../../testing/billing-fakes';
import { FakeSession, FakeToasts, MemoryStorage, RecordingLogger } from '../../testing/ui-fakes';
import { CheckoutIntent } from './checkout-intent';
import { CheckoutReturnFlow, checkoutReturnOf, withoutCheckoutParams } from './checkout-return.flow';
import { SubscriptionStore } from './subscription.store';

class CountingProfileApi extends FakeProfileApi {
  readonly getTimes: number[] = [];
  constructor(private readonly timers: SteppedTimers) {
    super();
  }
  override async get() {
    this.getTimes.push(this.timers.now());
    return super.get();
  }
}

function setup() {
  const timers = new SteppedTimers(0);
  const profileApi = new CountingProfileApi(timers);
  const plansApi = new FakePlansApi();
  const usageApi = new FakeUsageApi();
  const logger = new RecordingLogger();
  const store = new SubscriptionStore(new FakeSession('signed-in'), profileApi, plansApi, usageApi, timers, logger);
  const payments = new FakePaymentsApi();
  const toasts = new FakeToasts();
  const analytics = new RecordingAnalytics();
  const navigator = new RecordingNavigator();
  const intent = new CheckoutIntent(new MemoryStorage());
  const flow = new CheckoutReturnFlow(store, payments, toasts, analytics, navigator, timers, logger, intent);
  return { intent, flow, store, timers, profileApi, plansApi, usageApi, payments, toasts, analytics, navigator, logger };
}

const at = (pathname: string, search: string, key = 'k1') => ({ key, pathname, search });

describe('checkout query values', () => {
  it('success or session_id means success, canceled means canceled', () => {
    expect(checkoutReturnOf('?success=true')).toBe('success');
    expect(checkoutReturnOf('?session_id=cs_123')).toBe('success');
    expect(checkoutReturnOf('?success')).toBe('success');
    expect(checkoutReturnOf('?canceled=true')).toBe('canceled');
    expect(checkoutReturnOf('?tab=plan')).toBeNull();
    expect(checkoutReturnOf('')).toBeNull();
  });

  it('removes only the checkout values', () => {
    expect(withoutCheckoutParams('?success=true&session_id=cs_1')).toBe('');
    expect(withoutCheckoutParams('?tab=plan&canceled=true')).toBe('?tab=plan');
  });
});

describe('CheckoutReturnFlow: return with success (SPEC §4 After checkout success)', () => {
  it('toasts, refreshes the profile after 1 s, syncs after 2.5 s, then toasts and goes to /settings', async () => {
    const t = setup();
    t.plansApi.currentReply = PRO_MONTHLY_CURRENT;

    const done = t.flow.handle(at('/pricing', '?success=true&session_id=cs_1'));

    expect(done).not.toBeNull();
    expect(t.navigator.visits).toEqual([{ to: '/pricing', replace: true }]); // values leave the address
    expect(t.toasts.shown).toEqual([{ title: 'Updating Subscription', variant: 'info' }]);
    expect(t.flow.status).toBe('syncing');

    await t.timers.advance(999);
    expect(t.profileApi.getTimes).toEqual([]);
    await t.timers.advance(1);
    expect(t.profileApi.getTimes).toEqual([1000]);
    expect(t.payments.calls).toEqual([]);

    await t.timers.advance(1499);
    expect(t.payments.calls).toEqual([]);
    expect(t.plansApi.calls).toEqual([]);
    await t.timers.advance(1);
    await done;

    // Plans, profile and current plan reloaded, then the sync, then a refresh.
    expect(t.plansApi.calls.slice(0, 2).sort()).toEqual(['current', 'list']);
    expect(t.profileApi.getTimes).toEqual([1000, 2500, 2500]);
    expect(t.payments.calls).toEqual(['force-update']);
    expect(t.usageApi.calls).toBe(1);
    expect(t.toasts.shown.map((s) => s.title)).toEqual(['Updating Subscription', 'Subscription Updated']);
    expect(t.toasts.shown[1]).toEqual({ title: 'Subscription Updated', variant: 'success' });
    expect(t.navigator.last).toBe('/settings');
    expect(t.flow.status).toBe('done');
    expect(t.flow.syncedPlanName).toBe('Pro Monthly');
  });

  it('tracks the purchase with planId, planName and a numeric planPrice', async () => {
    const t = setup();
    const done = t.flow.handle(at('/', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.analytics.purchases).toEqual([{ planId: 'pro_monthly', planName: 'Pro Monthly', planPrice: 25, currency: 'USD' }]);
  });

  it('does not track a purchase whose price is not a number (domain validation)', async () => {
    const t = setup();
    t.payments.forceUpdateReply = {
      status: 'success',
      message: null,
      plan: { id: 'pro_monthly', price: '25' as unknown as number, currency: 'usd', billing_interval: 'monthly' },
      subscription: null,
    };
    const done = t.flow.handle(at('/', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.analytics.purchases).toEqual([]);
    expect(t.logger.lines).toContain('warn: Purchase not tracked: Purchase tracking needs a numeric planPrice');
    expect(t.navigator.last).toBe('/settings');
  });

  it("a failed sync shows the 'Sync Error' warning and stays on the page", async () => {
    const t = setup();
    t.payments.forceUpdateReply = new Error('Request failed');
    const done = t.flow.handle(at('/pricing', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.toasts.shown.at(-1)).toEqual({
      title: 'Sync Error',
      description: 'There was an issue syncing your subscription. Please try refreshing.',
      variant: 'warning',
    });
    expect(t.flow.status).toBe('failed');
    expect(t.navigator.visits).toEqual([{ to: '/pricing', replace: true }]);
    expect(t.analytics.purchases).toEqual([]);
    expect(t.logger.lines).toContain('error: Failed to sync subscription');
  });

  it("synced but not reloaded: SPEC §8's 'Error' asks for a refresh, and the page stays", async () => {
    const t = setup();
    const done = t.flow.handle(at('/pricing', '?success=true'));
    await t.timers.advance(1000);
    t.usageApi.reply = new Error('Service unavailable');
    await t.timers.advance(1500);
    await done;
    expect(t.payments.calls.filter((c) => c === 'force-update')).toHaveLength(1);
    expect(t.toasts.shown.at(-1)).toEqual({ title: 'Error', description: 'There was a problem updating your subscription. Please refresh the page.', variant: 'error' });
    expect(t.flow.status).toBe('failed');
    expect(t.navigator.visits).toEqual([{ to: '/pricing', replace: true }]);
  });

  it("a sync answered with status 'error' is a failure too", async () => {
    const t = setup();
    t.payments.forceUpdateReply = { status: 'error', message: 'No subscription', plan: null, subscription: null };
    const done = t.flow.handle(at('/', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.toasts.shown.at(-1)?.title).toBe('Sync Error');
  });

  it('handles one location once (StrictMode runs effects twice) and keeps other query values', async () => {
    const t = setup();
    const first = t.flow.handle(at('/settings', '?tab=plan&success=true'));
    expect(t.flow.handle(at('/settings', '?tab=plan&success=true'))).toBeNull();
    expect(t.navigator.visits).toEqual([{ to: '/settings?tab=plan', replace: true }]);
    await t.timers.advance(2500);
    await first;
    expect(t.payments.calls).toEqual(['force-update']);
  });

  it('on /thank-you the address keeps its values (the checkout guard needs them) and the same sync runs', async () => {
    const t = setup();
    const done = t.flow.handle(at('/thank-you', '?session_id=cs_1'));
    expect(t.navigator.visits).toEqual([]);
    await t.timers.advance(2500);
    await done;
    expect(t.payments.calls).toEqual(['force-update']);
    expect(t.navigator.last).toBe('/settings');
  });

  it('pages without checkout values do nothing', () => {
    const t = setup();
    expect(t.flow.handle(at('/settings', '?tab=plan'))).toBeNull();
    expect(t.toasts.shown).toEqual([]);
    expect(t.navigator.visits).toEqual([]);
  });
});

describe('CheckoutReturnFlow: what was bought and where to come back to', () => {
  it("an add-on purchase says how many credits were added and lands on Settings → Plan & usage", async () => {
    const t = setup();
    t.intent.remember('add_on', null);
    const done = t.flow.handle(at('/settings', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.toasts.shown.at(-1)).toEqual({ title: '500 credits added', variant: 'success' });
    expect(t.navigator.last).toBe('/settings?tab=plan');
  });

  it('an add-on return without a remembered intent (another tab) is recognised by its return page', async () => {
    const t = setup();
    const done = t.flow.handle(at('/settings', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.toasts.shown.at(-1)?.title).toBe('500 credits added');
  });

  it('an upgrade started in the builder comes back to the builder', async () => {
    const t = setup();
    t.intent.remember('plan', '/builder/p1');
    const done = t.flow.handle(at('/pricing', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.toasts.shown.at(-1)).toEqual({ title: 'Subscription Updated', variant: 'success' });
    expect(t.navigator.last).toBe('/builder/p1');
  });

  it('credits bought in the builder come back to the builder too', async () => {
    const t = setup();
    t.intent.remember('add_on', '/builder/p1?tab=code');
    const done = t.flow.handle(at('/settings', '?success=true'));
    await t.timers.advance(2500);
    await done;
    expect(t.toasts.shown.at(-1)?.title).toBe('500 credits added');
    expect(t.navigator.last).toBe('/builder/p1?tab=code');
  });

  it('the intent is used once', async () => {
    const t = setup();
    t.intent.remember('plan', '/builder/p1');
    const first = t.flow.handle(at('/pricing', '?success=true', 'k1'));
    await t.timers.advance(2500);
    await first;
    expect(t.intent.take()).toBeNull();
  });

  it('a canceled checkout goes back where it was started', () => {
    const t = setup();
    t.intent.remember('plan', '/builder/p1');
    t.flow.handle(at('/pricing', '?canceled=true'));
    expect(t.navigator.visits).toEqual([
      { to: '/pricing', replace: true },
      { to: '/builder/p1', replace: false },
    ]);
  });
});

describe('CheckoutReturnFlow: return with canceled', () => {
  it("shows the 'Checkout Canceled' info toast and removes the value; no sync", async () => {
    const t = setup();
    expect(t.flow.handle(at('/pricing', '?canceled=true'))).toBeNull();
    expect(t.toasts.shown).toEqual([{ title: 'Checkout Canceled', description: 'Your subscription update was canceled.', variant: 'info' }]);
    expect(t.navigator.visits).toEqual([{ to: '/pricing', replace: true }]);
    await t.timers.advance(5000);
    expect(t.payments.calls).toEqual([]);
  });
});
