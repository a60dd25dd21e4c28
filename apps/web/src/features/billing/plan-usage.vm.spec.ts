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

    expect(s.payments.calls).toEqual(['force-update']);
    expect(s.vm.syncing).toBe(false);
    expect(s.vm.planName).toBe('Pro Monthly');
    expect(s.vm.buttons).toMatchObject({ getMoreCredits: true, manageSubscription: true, earnMoreCredits: true, referToFriends: false });
    expect(s.vm.credits?.total).toBe(25);
    expect(s.toasts.shown).toEqual([{ title: 'Subscription updated', variant: 'success' }]);
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
