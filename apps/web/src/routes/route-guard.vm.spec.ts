import { StoredSavedPrompts } from '../storage/saved-prompts';
import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../app/ports';
import { PostSignInFlow } from '../features/auth/post-sign-in.flow';
import { ReferralCapture } from '../features/referral-capture/referral-capture';
import { InMemoryKeyValueStorage } from '../storage/memory-storage';
import { FakeProfileApi, RecordingNavigator, ScriptedSession } from '../testing/auth-fakes';
import { FakeToasts } from '../testing/ui-fakes';
import { RouteGuardVm } from './route-guard.vm';

function setup(status: 'loading' | 'signed-out' | 'signed-in' = 'signed-out') {
  const session = new ScriptedSession(status);
  const storage = new InMemoryKeyValueStorage();
  const flow = new PostSignInFlow(new FakeProfileApi(), storage, new ReferralCapture(storage, new FakeToasts()), new StoredSavedPrompts(storage));
  const navigator = new RecordingNavigator();
  const vm = new RouteGuardVm(session, flow, navigator);
  return { session, storage, flow, navigator, vm };
}

const settings = { path: '/settings', search: '?tab=referrals', hash: '', guard: 'auth' as const };

describe('RouteGuardVm', () => {
  it('follows a redirect: remembers the requested path and replaces the history entry', () => {
    const { vm, storage, navigator } = setup('signed-out');

    vm.follow(vm.decide(settings));

    expect(storage.get(STORAGE_KEYS.returnTo)).toBe('/settings?tab=referrals');
    expect(navigator.visits).toEqual([{ to: '/get-started', replace: true }]);
  });

  it('decides again when the session changes (observable)', () => {
    const { vm, session } = setup('loading');
    expect(vm.decide(settings)).toEqual({ kind: 'wait' });

    session.setState('signed-in');

    expect(vm.decide(settings)).toEqual({ kind: 'render' });
  });

  it('does nothing for render decisions', () => {
    const { vm, navigator, storage } = setup('signed-in');
    vm.follow(vm.decide(settings));
    expect(navigator.visits).toEqual([]);
    expect(storage.snapshot()).toEqual({});
  });

  it('restores the remembered path after sign-in (round trip)', () => {
    const { vm, flow, session } = setup('signed-out');
    vm.follow(vm.decide(settings));

    session.setState('signed-in');

    expect(flow.takeReturnTo()).toBe('/settings?tab=referrals');
    expect(flow.takeReturnTo()).toBe('/');
  });
});
