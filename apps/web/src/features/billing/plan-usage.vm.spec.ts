import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { profileDto, usageDto } from '../../testing/api-fixtures';
import { ManualTimers } from '../../testing/auth-fakes';
import { FakePaymentsApi, FakePlansApi, FakeUsageApi, PRO_MONTHLY_CURRENT } from '../../testing/billing-fakes';
import { FakeNavigation, FakeSession, FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import { PlanUsageVm } from './plan-usage.vm';
import { SubscriptionStore } from './subscription.store';

function setup() {
  const profile = { current: profileDto({ subscription_plan: 'free', subscription_status: null, customer_id: null }) };
  const profileApi = {
    get: async () => profile.current,
    update: async () => profile.current,
    ensure: async () => {
      throw new Error('not used');
    },
  };
  const plans = new FakePlansApi();
  const usage = new FakeUsageApi();
  const payments = new FakePaymentsApi();
  const toasts = new FakeToasts();
  const navigation = new FakeNavigation();
  const logger = new RecordingLogger();
  const store = new SubscriptionStore(new FakeSession('signed-in'), profileApi, plans, usage, new ManualTimers(), new RecordingLogger());
  const vm = new PlanUsageVm(store, usage, plans, payments, toasts, navigation, logger);
  return { vm, store, profile, plans, usage, payments, toasts, navigation, logger };
}

describe('PlanUsageVm: manual "Sync subscription" (SPEC §4)', () => {
  it('re-reads the subscription from the provider, then reloads profile, plan and usage, and says so', async () => {
    const s = setup();
    await s.vm.load();
    expect(s.vm.isFreePlan).toBe(true);
    // the provider has the paid subscription the webhook has not delivered yet
    s.profile.current = profileDto({ subscription_plan: 'pro_monthly', subscription_status: 'active', customer_id: 'cus_1' });
    s.plans.currentReply = PRO_MONTHLY_CURRENT;
    s.usage.reply = usageDto({ credits_remaining: 25 });

    const syncing = s.vm.sync();
    expect(s.vm.syncing).toBe(true);
    await s.vm.sync(); // a second click while syncing does nothing
    await syncing;

    // the panel's own load read the history once; the sync re-reads it after the provider
    expect(s.payments.calls).toEqual(['invoices', 'force-update', 'invoices']);
    expect(s.vm.syncing).toBe(false);
    expect(s.vm.planName).toBe('Pro Monthly');
    expect(s.vm.buttons).toMatchObject({ getMoreCredits: true, manageSubscription: true, earnMoreCredits: true, referToFriends: false });
    expect(s.vm.credits?.total).toBe(25);
    expect(s.toasts.shown).toEqual([{ title: 'Subscription Updated', variant: 'success' }]);
  });

  it('no subscription at the provider (404): says so, nothing else changes', async () => {
    const s = setup();
    await s.vm.load();
    s.payments.forceUpdateReply = new ApiError('No active subscription found. Please subscribe first.', 404, 'BILLING.NO_SUBSCRIPTION', null);
    await s.vm.sync();
    expect(s.toasts.shown).toEqual([{ title: 'Failed to sync subscription', description: 'No active subscription found. Please subscribe first.', variant: 'error' }]);
    expect(s.logger.lines).toEqual(['error: Failed to sync subscription']);
    expect(s.vm.isFreePlan).toBe(true);
  });

  it('a provider that cannot be reached (503) or an error reply gives the SPEC §8 Sync Error warning', async () => {
    const s = setup();
    s.payments.forceUpdateReply = new ApiError('Service unavailable', 503, null, null);
    await s.vm.sync();
    s.payments.forceUpdateReply = { status: 'error', message: 'stripe said no', plan: null, subscription: null };
    await s.vm.sync();
    const warning = { title: 'Sync Error', description: 'There was an issue syncing your subscription. Please try refreshing.', variant: 'warning' };
    expect(s.toasts.shown).toEqual([warning, warning]);
    expect(s.vm.syncing).toBe(false);
  });
});

describe("PlanUsageVm: 'Error loading subscription data: {error}' (SPEC §8)", () => {
  it('carries the reason in the log and on the panel; a retry that works clears it', async () => {
    const s = setup();
    s.usage.reply = new ApiError('Service unavailable', 503, null, null);
    await s.vm.load();
    expect(s.vm.status).toBe('error');
    expect(s.vm.loadError).toBe('Error loading subscription data: Service unavailable');
    expect(s.logger.lines).toEqual(['error: Error loading subscription data: Service unavailable']);

    s.usage.reply = usageDto();
    await s.vm.load();
    expect(s.vm.status).toBe('ready');
    expect(s.vm.loadError).toBeNull();
  });
});

describe('PlanUsageVm: the builder opens the referrals tab in a new window', () => {
  it('Refer to Friends opens /settings?tab=referrals', () => {
    const s = setup();
    s.vm.referToFriends();
    expect(s.navigation.opened).toEqual(['/settings?tab=referrals']);
  });
});

describe('PlanUsageVm: billing history', () => {
  it('loads the invoices with the panel and shows each amount in its currency', async () => {
    const s = setup();
    s.payments.invoicesReply = [
      { id: 'in_2', number: null, status: 'paid', amount_minor: 49900, currency: 'INR', description: '500 add-on credits', created_at: '2026-03-02T10:00:00.000Z', url: null },
      { id: 'in_1', number: 'K-1', status: 'open', amount_minor: 2500, currency: 'usd', description: 'Pro Monthly', created_at: '2026-03-01T10:00:00.000Z', url: 'https://pay.test/in_1' },
      { id: 'in_0', number: 'K-0', status: 'paid', amount_minor: 1250, currency: 'EUR', description: 'Old', created_at: '2026-02-01T10:00:00.000Z', url: null },
    ];
    await s.vm.load();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(s.vm.invoicesStatus).toBe('ready');
    expect(s.vm.invoiceRows).toEqual([
      { id: 'in_2', date: '2026-03-02T10:00:00.000Z', description: '500 add-on credits', amount: '₹499', status: 'paid', url: null },
      { id: 'in_1', date: '2026-03-01T10:00:00.000Z', description: 'Pro Monthly', amount: '$25', status: 'open', url: 'https://pay.test/in_1' },
      { id: 'in_0', date: '2026-02-01T10:00:00.000Z', description: 'Old', amount: '12.50 EUR', status: 'paid', url: null },
    ]);
  });

  it('a failed history load is logged and leaves the rest of the panel working', async () => {
    const s = setup();
    s.payments.invoicesReply = new ApiError('The payment provider could not be reached. Please try again in a moment.', 503, 'BILLING.PROVIDER_UNAVAILABLE', null);
    await s.vm.load();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(s.vm.invoicesStatus).toBe('error');
    expect(s.vm.status).toBe('ready');
    expect(s.logger.lines).toEqual(['warn: Error loading billing history']);
  });
});
