import { describe, expect, it } from '@jest/globals';
import type { ReferralsApi, ReferralStatsDto } from '../../api/referrals.api';
import { referralsDto } from '../../testing/api-fixtures';
import { ManualTimers } from '../../testing/auth-fakes';
import { FakePlansApi, FakeUsageApi } from '../../testing/billing-fakes';
import { FakeSession, FakeToasts, MemoryStorage, RecordingLogger } from '../../testing/ui-fakes';
import { profileDto } from '../../testing/api-fixtures';
import { REFERRAL_POLL_MS, ReferralBonusWatcher, referralsSeenKey } from './referral-bonus.watcher';
import { SubscriptionStore } from './subscription.store';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(initial: Record<string, string> = {}) {
  const state = { count: 0, down: false };
  const referrals: ReferralsApi = {
    stats: async (): Promise<ReferralStatsDto> => {
      if (state.down) throw new Error('down');
      return referralsDto({ referred_count: state.count });
    },
  };
  const session = new FakeSession('signed-in');
  const storage = new MemoryStorage(initial);
  const toasts = new FakeToasts();
  const timers = new ManualTimers();
  const usage = new FakeUsageApi();
  let profileLoads = 0;
  const profileApi = {
    get: async () => {
      profileLoads += 1;
      return profileDto();
    },
    update: async () => profileDto(),
    ensure: async () => {
      throw new Error('not used');
    },
  };
  const store = new SubscriptionStore(session, profileApi, new FakePlansApi(), usage, new ManualTimers(), new RecordingLogger());
  const watcher = new ReferralBonusWatcher(session, referrals, storage, toasts, timers, store, new RecordingLogger());
  return { state, session, storage, toasts, timers, usage, watcher, profileLoads: () => profileLoads };
}

const BONUS = { title: 'Referral Bonus!', description: 'Your friend just signed up! You received 25 bonus credits!', variant: 'success' };

describe("ReferralBonusWatcher: the referrer's 'Referral Bonus!' toast (SPEC §8)", () => {
  it('a first visit only records the count; a friend signing up later is announced once, with the credits reloaded', async () => {
    const s = setup();
    const stop = s.watcher.start();
    await flush();
    expect(s.storage.get(referralsSeenKey('u1'))).toBe('0');
    expect(s.toasts.shown).toEqual([]);

    s.state.count = 1; // the friend signs up; the server has credited the referrer
    s.timers.advance(REFERRAL_POLL_MS);
    await flush();
    expect(s.toasts.shown).toEqual([BONUS]);
    expect(s.profileLoads()).toBe(1);
    expect(s.usage.calls).toBe(1);

    s.timers.advance(REFERRAL_POLL_MS); // nothing new: no second toast
    await flush();
    expect(s.toasts.shown).toHaveLength(1);
    stop();
  });

  it('a friend who signed up while the referrer was away is announced on the next visit', async () => {
    const s = setup({ [referralsSeenKey('u1')]: '2' });
    s.state.count = 3;
    await s.watcher.check();
    expect(s.toasts.shown).toEqual([BONUS]);
    expect(s.storage.get(referralsSeenKey('u1'))).toBe('3');
  });

  it('stops polling when signed out, and a failed check is only logged', async () => {
    const s = setup({ [referralsSeenKey('u1')]: '0' });
    const stop = s.watcher.start();
    await flush();
    await s.session.signOut();
    s.state.count = 5;
    s.timers.advance(REFERRAL_POLL_MS * 3);
    await flush();
    expect(s.toasts.shown).toEqual([]);
    expect(s.timers.running).toBe(0);
    stop();

    const t = setup({ [referralsSeenKey('u1')]: '0' });
    t.state.down = true;
    await t.watcher.check();
    expect(t.toasts.shown).toEqual([]);
    expect(t.storage.get(referralsSeenKey('u1'))).toBe('0');
  });
});
