import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { describe, expect, it } from '@jest/globals';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { FakeProfileApi, RecordingNavigator, ScriptedSession, settle } from '../../testing/auth-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from '../referral-capture/referral-capture';
import { AuthCallbackVm, callbackError } from './auth-callback.vm';
import { PostSignInFlow } from './post-sign-in.flow';

function setup(status: 'loading' | 'signed-in' | 'signed-out') {
  const session = new ScriptedSession(status);
  const navigator = new RecordingNavigator();
  const storage = new InMemoryKeyValueStorage();
  const profiles = new FakeProfileApi();
  const flow = new PostSignInFlow(profiles, storage, new ReferralCapture(storage, new FakeToasts()), new StoredSavedPrompts(storage));
  return { session, navigator, flow, profiles, vm: new AuthCallbackVm(session, navigator, flow) };
}

const clean = { search: '', hash: '' };

describe('AuthCallbackVm', () => {
  it('waits for the session, finishes the sign-in and goes to the remembered path', async () => {
    const { vm, session, navigator, flow, profiles } = setup('loading');
    flow.rememberReturnTo('/builder/p1');

    const finished = vm.finish(clean);
    await settle();
    expect(navigator.visits).toEqual([]);

    session.setState('signed-in');
    await finished;

    expect(profiles.ensured).toEqual([null]);
    expect(navigator.visits).toEqual([{ to: '/builder/p1', replace: true }]);
  });

  it('sends a visitor without a session to /get-started', async () => {
    const { vm, navigator } = setup('signed-out');
    await vm.finish(clean);
    expect(navigator.visits).toEqual([{ to: '/get-started', replace: true }]);
  });

  it('reports redirect errors and stays (SPEC §8: not cleared)', async () => {
    const { vm, navigator } = setup('signed-in');
    await vm.finish({ search: '', hash: '#error=server_error&error_code=identity_already_exists&error_description=Identity+is+already+linked' });
    expect(vm.error).toBe('That sign-in is already linked to another account.');
    expect(navigator.visits).toEqual([]);
  });

  it('stops when the view goes away first', async () => {
    const { vm, session, navigator } = setup('loading');
    const finished = vm.finish(clean);
    vm.dispose();
    session.setState('signed-in');
    await finished;
    expect(navigator.visits).toEqual([]);
  });

  it('callbackError reads the query or the fragment', () => {
    expect(callbackError('?error=access_denied', '')).toEqual({ code: 'access_denied', description: null });
    expect(callbackError('', '#error_code=otp_expired&error_description=Link+expired')).toEqual({
      code: 'otp_expired',
      description: 'Link expired',
    });
    expect(callbackError('?next=/x', '#access_token=abc')).toBeNull();
  });
});
