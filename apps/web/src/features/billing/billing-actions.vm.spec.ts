import { describe, expect, it } from '@jest/globals';
import { ApiError, type ProfileDto } from '../../app/ports';
import { FakeProfileApi, profileDto } from '../../testing/auth-fakes';
import { FakePaymentsApi, FakePlansApi, FakeUsageApi, SteppedTimers } from '../../testing/billing-fakes';
import { FakeNavigation, FakeSession, FakeToasts, RecordingLogger } from '../../testing/ui-fakes';
import { BillingActionsVm } from './billing-actions.vm';
import { SubscriptionStore } from './subscription.store';

const SUBSCRIBED = { subscription_plan: 'pro_monthly', subscription_id: 'sub_1', subscription_status: 'active', customer_id: 'cus_1' };

function setup(profile: ProfileDto | null = profileDto(SUBSCRIBED), status: 'signed-in' | 'signed-out' = 'signed-in') {
  const profileApi = new FakeProfileApi();
  if (profile !== null) profileApi.profile = profile;
  const usageApi = new FakeUsageApi();
  const store = new SubscriptionStore(new FakeSession(status), profileApi, new FakePlansApi(), usageApi, new SteppedTimers(), new RecordingLogger());
  if (profile !== null) store.setProfile(profile);
  const payments = new FakePaymentsApi();
  const toasts = new FakeToasts();
  const navigation = new FakeNavigation();
  const logger = new RecordingLogger();
  const vm = new BillingActionsVm(store, payments, toasts, navigation, logger);
  return { vm, store, profileApi, usageApi, payments, toasts, navigation, logger };
}

describe('BillingActionsVm: Manage Subscription (SPEC §2, §8)', () => {
  it('opens the customer portal and stays busy while the browser leaves', async () => {
    const t = setup();
    const pending = t.vm.manageSubscription();
    expect(t.vm.openingPortal).toBe(true);
    await pending;
    expect(t.payments.calls).toEqual(['portal']);
    expect(t.navigation.assigned).toEqual(['https://pay.example/portal']);
    expect(t.vm.openingPortal).toBe(true);
  });

  it('needs a customer id: without one, no call and the no-subscription message', async () => {
    const t = setup(profileDto({ customer_id: '  ' }));
    await t.vm.manageSubscription();
    expect(t.payments.calls).toEqual([]);
    expect(t.toasts.shown).toEqual([
      { title: 'Portal Access Error', description: 'No active subscription found. Please subscribe first.', variant: 'error' },
    ]);
  });

  it('without a loaded profile it cannot verify the subscription', async () => {
    const t = setup(null);
    await t.vm.manageSubscription();
    expect(t.payments.calls).toEqual([]);
    expect(t.toasts.shown[0]?.description).toBe('Unable to verify your subscription. Please refresh and try again.');
  });

  it('signed out: the inline not-logged-in message', async () => {
    const t = setup(profileDto(SUBSCRIBED), 'signed-out');
    await t.vm.manageSubscription();
    expect(t.vm.portalError).toBe('Unable to access customer portal. User not logged in.');
    expect(t.payments.calls).toEqual([]);
  });

  it("a failing portal call: 'Portal Error' toast and the inline message", async () => {
    const t = setup();
    t.payments.portalReply = new ApiError('Request failed', 500, 'INTERNAL', null);
    await t.vm.manageSubscription();
    expect(t.toasts.shown).toEqual([
      { title: 'Portal Error', description: 'Failed to navigate to the secure payment portal. Please try again.', variant: 'error' },
    ]);
    expect(t.vm.portalError).toBe('Unable to access customer portal. Please try again.');
    expect(t.vm.openingPortal).toBe(false);
    expect(t.navigation.assigned).toEqual([]);
  });

  it('a reply without a link: the portal is unavailable', async () => {
    const t = setup();
    t.payments.portalReply = new Error('Unable to access subscription management portal.');
    await t.vm.manageSubscription();
    expect(t.toasts.shown[0]).toEqual({ title: 'Portal Access Error', description: 'Unable to access subscription management portal.', variant: 'error' });
  });

  it('the server knows no subscription (404): the no-subscription message', async () => {
    const t = setup();
    t.payments.portalReply = new ApiError('No customer', 404, 'PAYMENTS.NO_CUSTOMER', null);
    await t.vm.manageSubscription();
    expect(t.toasts.shown[0]?.description).toBe('No active subscription found. Please subscribe first.');
  });
});

describe('BillingActionsVm: Cancel subscription', () => {
  it('is offered only for an active subscription with an id', () => {
    expect(setup().vm.canCancel).toBe(true);
    expect(setup(profileDto({ ...SUBSCRIBED, subscription_status: 'canceled' })).vm.canCancel).toBe(false);
    expect(setup(profileDto({ ...SUBSCRIBED, subscription_id: null })).vm.canCancel).toBe(false);
    expect(setup(null).vm.canCancel).toBe(false);
  });

  it('asks first; keeping the subscription closes the question without a call', () => {
    const t = setup();
    t.vm.askToCancel();
    expect(t.vm.confirmingCancel).toBe(true);
    t.vm.dismissCancel();
    expect(t.vm.confirmingCancel).toBe(false);
    expect(t.payments.calls).toEqual([]);
  });

  it("confirming posts the profile's subscription id, toasts the server's message and reloads the state", async () => {
    const t = setup();
    t.payments.cancelReply = { message: 'Subscription will cancel at period end' };
    t.profileApi.profile = profileDto({ ...SUBSCRIBED, subscription_status: 'canceled' });
    t.vm.askToCancel();
    const pending = t.vm.confirmCancel();
    expect(t.vm.canceling).toBe(true);
    t.vm.dismissCancel(); // cannot close while canceling
    expect(t.vm.confirmingCancel).toBe(true);
    await pending;

    expect(t.payments.calls).toEqual(['cancel:sub_1']);
    expect(t.toasts.shown).toEqual([{ title: 'Subscription canceled', description: 'Subscription will cancel at period end', variant: 'success' }]);
    expect(t.vm.confirmingCancel).toBe(false);
    expect(t.store.profile?.subscription_status).toBe('canceled');
    expect(t.usageApi.calls).toBe(1);
  });

  it("a failure says 'Failed to cancel subscription' and keeps the dialog open", async () => {
    const t = setup();
    t.payments.cancelReply = new Error('Request failed');
    t.vm.askToCancel();
    await t.vm.confirmCancel();
    expect(t.vm.cancelError).toBe('Failed to cancel subscription');
    expect(t.vm.confirmingCancel).toBe(true);
    expect(t.vm.canceling).toBe(false);
    expect(t.toasts.shown).toEqual([{ title: 'Failed to cancel subscription', variant: 'error' }]);
    expect(t.logger.lines).toEqual(['error: Failed to cancel subscription']);
  });
});
