import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { describe, expect, it } from '@jest/globals';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { failure, FakeProfileApi, ManualTimers, RecordingNavigator, ScriptedSession } from '../../testing/auth-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from '../referral-capture/referral-capture';
import { CodeCooldowns } from './code-cooldown';
import { PostSignInFlow } from './post-sign-in.flow';
import { ResetPasswordVm } from './reset-password.vm';

function setup() {
  const session = new ScriptedSession('signed-out');
  const navigator = new RecordingNavigator();
  const timers = new ManualTimers();
  const storage = new InMemoryKeyValueStorage();
  const profiles = new FakeProfileApi();
  const flow = new PostSignInFlow(profiles, storage, new ReferralCapture(storage, new FakeToasts()), new StoredSavedPrompts(storage));
  const vm = new ResetPasswordVm(session, navigator, timers, flow, new CodeCooldowns(timers));
  return { session, navigator, timers, flow, profiles, vm };
}

async function toStepTwo(vm: ResetPasswordVm) {
  vm.setEmail('ada@example.com');
  await vm.requestCode();
}

describe('ResetPasswordVm', () => {
  it('step one validates the email before asking for a code', async () => {
    const { vm, session } = setup();
    vm.setEmail('nope');
    await vm.requestCode();
    expect(vm.emailError).not.toBeNull();
    expect(session.calls).toEqual([]);
    expect(vm.step).toBe('request');
  });

  it('asks for a code and moves on without revealing whether the account exists', async () => {
    const { vm, session } = setup();
    await toStepTwo(vm);
    expect(session.callsOf('requestPasswordReset')).toEqual(['ada@example.com']);
    expect(vm.step).toBe('reset');
    expect(vm.notice).toBe('If an account uses ada@example.com, we sent it a 6-digit code.');
    expect(vm.resendSecondsLeft).toBe(60);
  });

  it('verifies the recovery code, sets the new password, ensures the profile and returns', async () => {
    const { vm, session, navigator, flow, profiles } = setup();
    flow.rememberReturnTo('/builder/p1');
    await toStepTwo(vm);
    vm.setCode('123456');
    vm.setPassword('a new password');

    await vm.submit();

    expect(session.callsOf('verifyCode')).toEqual([{ email: 'ada@example.com', code: '123456', type: 'recovery' }]);
    expect(session.callsOf('updatePassword')).toEqual(['a new password']);
    expect(profiles.ensured).toEqual([null]);
    expect(navigator.visits).toEqual([{ to: '/builder/p1', replace: true }]);
  });

  it('checks the code and password before calling the server', async () => {
    const { vm, session } = setup();
    await toStepTwo(vm);
    vm.setCode('12');
    vm.setPassword('short');
    await vm.submit();
    expect(vm.codeError).toBe('Enter the 6-digit code from your email.');
    expect(vm.passwordError).toBe('Your password needs at least 8 characters.');
    expect(session.callsOf('verifyCode')).toEqual([]);
  });

  it('a refused new password does not burn the code again on retry', async () => {
    const { vm, session, navigator } = setup();
    session.reply('updatePassword', failure('same_password', 'New password should be different from the old password.'));
    await toStepTwo(vm);
    vm.setCode('123456');
    vm.setPassword('the old password');

    await vm.submit();
    expect(vm.error).toBe('Your new password must be different from your current one.');
    expect(vm.codeAccepted).toBe(true);

    vm.setPassword('a fresh password');
    await vm.submit();

    expect(session.callsOf('verifyCode')).toHaveLength(1);
    expect(session.callsOf('updatePassword')).toEqual(['the old password', 'a fresh password']);
    expect(navigator.last).toBe('/');
  });

  it('explains an expired code', async () => {
    const { vm, session } = setup();
    session.reply('verifyCode', failure('otp_expired'));
    await toStepTwo(vm);
    vm.setCode('123456');
    vm.setPassword('a new password');
    await vm.submit();
    expect(vm.error).toMatch(/wrong or has expired/);
    expect(vm.code).toBe('');
  });

  it('resend waits for the countdown', async () => {
    const { vm, session, timers } = setup();
    vm.start();
    await toStepTwo(vm);
    expect(vm.canResend).toBe(false);
    await vm.resend();
    expect(session.callsOf('requestPasswordReset')).toHaveLength(1);
    timers.advance(60_000);
    expect(vm.resendLabel).toBe('Resend code');
    await vm.resend();
    expect(session.callsOf('requestPasswordReset')).toHaveLength(2);
    vm.dispose();
  });
});
