import { describe, expect, it } from '@jest/globals';
import { runInAction } from 'mobx';
import { FakeProfileApi, profileDto } from '../../testing/auth-fakes';
import { FakePlansApi, FakeUsageApi, PRO_MONTHLY_CURRENT, SteppedTimers } from '../../testing/billing-fakes';
import { FakeSession, RecordingLogger } from '../../testing/ui-fakes';
import { SubscriptionStore } from './subscription.store';

const TEN_MINUTES = 10 * 60 * 1000;

class CountingProfileApi extends FakeProfileApi {
  gets = 0;
  failGet: Error | null = null;
  override async get() {
    this.gets += 1;
    if (this.failGet) throw this.failGet;
    return super.get();
  }
}

function setup(status: 'signed-in' | 'signed-out' | 'loading' = 'signed-out') {
  const session = new FakeSession(status === 'loading' ? 'signed-out' : status);
  if (status === 'loading') runInAction(() => (session.status = 'loading'));
  const profileApi = new CountingProfileApi();
  const plansApi = new FakePlansApi();
  const usageApi = new FakeUsageApi();
  const timers = new SteppedTimers();
  const logger = new RecordingLogger();
  const store = new SubscriptionStore(session, profileApi, plansApi, usageApi, timers, logger);
  return { store, session, profileApi, plansApi, usageApi, timers, logger };
}

const signIn = (session: FakeSession) =>
  runInAction(() => {
    session.status = 'signed-in';
    session.user = { id: 'u1', email: 'ada@example.com', isSignup: false, metadata: {} };
  });

describe('SubscriptionStore (SPEC §3 Subscription state, §4 Subscription flow)', () => {
  it('on sign-in loads profile, plans, current plan and usage stats', async () => {
    const t = setup('signed-out');
    t.plansApi.currentReply = PRO_MONTHLY_CURRENT;
    const stop = t.store.start();
    expect(t.profileApi.gets).toBe(0);

    signIn(t.session);
    expect(t.store.loading).toBe(true);
    await t.timers.advance(0);

    expect(t.store.loading).toBe(false);
    expect(t.store.profile?.id).toBe('user-1');
    expect(t.store.plans.map((p) => p.id)).toEqual(['free', 'pro_monthly', 'pro_annual']);
    expect(t.store.currentPlan).toEqual(PRO_MONTHLY_CURRENT);
    expect(t.store.planId).toBe('pro_monthly');
    expect(t.store.usage?.credits_remaining).toBe(28);
    expect(t.store.lastUpdated).toBe(t.timers.now());
    stop();
  });

  it('refreshes the profile every 10 minutes while signed in, and stops on sign-out', async () => {
    const t = setup('signed-in');
    const stop = t.store.start();
    await t.timers.advance(0);
    expect(t.profileApi.gets).toBe(1);
    expect(t.timers.running).toBe(1);

    await t.timers.advance(TEN_MINUTES - 1);
    expect(t.profileApi.gets).toBe(1);
    await t.timers.advance(1);
    expect(t.profileApi.gets).toBe(2);
    t.profileApi.profile = profileDto({ credits: 1 });
    await t.timers.advance(TEN_MINUTES);
    expect(t.profileApi.gets).toBe(3);
    expect(t.store.profile?.credits).toBe(1);

    void t.session.signOut();
    await t.timers.advance(0);
    expect(t.timers.running).toBe(0);
    await t.timers.advance(3 * TEN_MINUTES);
    expect(t.profileApi.gets).toBe(3);
    stop();
  });

  it('resets profile and plan state on sign-out (plans, being public, stay)', async () => {
    const t = setup('signed-in');
    const stop = t.store.start();
    await t.timers.advance(0);
    t.store.setUpgrading(true);

    void t.session.signOut();
    await t.timers.advance(0);

    expect(t.store.profile).toBeNull();
    expect(t.store.currentPlan).toBeNull();
    expect(t.store.usage).toBeNull();
    expect(t.store.lastUpdated).toBeNull();
    expect(t.store.upgrading).toBe(false);
    expect(t.store.planId).toBe('free');
    stop();
  });

  it('loads nothing user-specific while the session is unknown or signed out', async () => {
    const t = setup('loading');
    const stop = t.store.start();
    await t.timers.advance(TEN_MINUTES);
    expect(t.profileApi.gets).toBe(0);
    expect(t.usageApi.calls).toBe(0);
    expect(await t.store.refreshProfile()).toBe(false);
    expect(t.timers.running).toBe(0);
    stop();
  });

  it('stopping stops the background refresh', async () => {
    const t = setup('signed-in');
    const stop = t.store.start();
    await t.timers.advance(0);
    stop();
    expect(t.timers.running).toBe(0);
    await t.timers.advance(TEN_MINUTES);
    expect(t.profileApi.gets).toBe(1);
  });

  it('load failures are only logged and keep what was loaded (SPEC §8)', async () => {
    const t = setup('signed-in');
    const stop = t.store.start();
    await t.timers.advance(0);
    const before = t.store.profile;
    t.profileApi.failGet = new Error('down');
    t.plansApi.listReply = new Error('down');

    await t.timers.advance(TEN_MINUTES);
    expect(await t.store.loadPlans()).toBe(false);

    expect(t.store.profile).toBe(before);
    expect(t.store.plans).toHaveLength(3);
    expect(t.logger.lines).toEqual(['error: Error loading profile', 'error: An error occurred loading plans']);
    stop();
  });

  it('free-trial-used follows the first purchase date', () => {
    const t = setup('signed-in');
    expect(t.store.freeTrialUsed).toBe(false);
    t.store.setProfile(profileDto({ first_purchased_date: '2025-02-01T00:00:00.000Z' }));
    expect(t.store.freeTrialUsed).toBe(true);
    t.store.clearCache();
    expect(t.store.freeTrialUsed).toBe(false);
  });
});
