import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../../app/ports';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import {
  failure,
  FakeProfileApi,
  ManualTimers,
  RecordingAnalytics,
  RecordingNavigator,
  ScriptedSession,
  settle,
} from '../../testing/auth-fakes';
import { ScriptedTwoFactor } from '../../testing/two-factor-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from '../referral-capture/referral-capture';
import { CodeCooldowns } from './code-cooldown';
import { LoginVm } from './login.vm';
import { PostSignInFlow } from './post-sign-in.flow';

function setup(initial: Record<string, string> = {}) {
  const session = new ScriptedSession('signed-out');
  const navigator = new RecordingNavigator();
  const analytics = new RecordingAnalytics();
  const storage = new InMemoryKeyValueStorage(initial);
  const toasts = new FakeToasts();
  const profiles = new FakeProfileApi();
  const flow = new PostSignInFlow(profiles, storage, new ReferralCapture(storage, toasts), new StoredSavedPrompts(storage));
  const timers = new ManualTimers();
  const cooldowns = new CodeCooldowns(timers);
  const twoFactor = new ScriptedTwoFactor(session);
  const vm = new LoginVm(session, navigator, analytics, flow, cooldowns, twoFactor);
  return { session, navigator, analytics, storage, toasts, profiles, flow, cooldowns, timers, twoFactor, vm };
}

describe('LoginVm', () => {
  it('shows field errors only after a submit attempt, and sends nothing invalid', async () => {
    const { vm, session } = setup();
    expect(vm.emailError).toBeNull();
    vm.setEmail('not-an-email');
    await vm.submit();
    expect(vm.emailError).toBe('Enter a valid email address, like name@example.com.');
    expect(vm.passwordError).toBe('Enter your password.');
    expect(session.calls).toEqual([]);
  });

  it('signs in, ensures the profile with the stored referral, tracks Login and returns to the remembered path', async () => {
    const { vm, session, navigator, analytics, profiles, flow, toasts } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });
    profiles.referral = { applied: true, bonus: 25 };
    flow.rememberReturnTo('/settings?tab=referrals');
    vm.setEmail(' ada@example.com ');
    vm.setPassword('correct horse');

    const done = vm.submit();
    expect(flow.inProgress).toBe(true);
    await done;

    expect(session.callsOf('signIn')).toEqual([{ email: 'ada@example.com', password: 'correct horse' }]);
    expect(profiles.ensured).toEqual(['K7QX2M']);
    expect(toasts.shown.map((t) => t.title)).toEqual(['Welcome Bonus!']);
    expect(analytics.events.map((e) => e.event)).toEqual(['Login']);
    expect(navigator.visits).toEqual([{ to: '/settings?tab=referrals', replace: true }]);
    // The guard must not bounce /login to '/' before the navigation lands: the flow ends on unmount.
    expect(flow.inProgress).toBe(true);
    vm.dispose();
    expect(flow.inProgress).toBe(false);
  });

  it('goes home when nothing was remembered', async () => {
    const { vm, navigator } = setup();
    vm.setEmail('ada@example.com');
    vm.setPassword('pw');
    await vm.submit();
    expect(navigator.last).toBe('/');
  });

  it('explains wrong credentials without saying which part was wrong', async () => {
    const { vm, session, navigator, flow } = setup();
    session.reply('signIn', failure('invalid_credentials', 'Invalid login credentials'));
    vm.setEmail('ada@example.com');
    vm.setPassword('wrong');

    await vm.submit();

    expect(vm.error).toBe("That email and password don't match an account. Check them and try again.");
    expect(vm.submitting).toBe(false);
    expect(flow.inProgress).toBe(false);
    expect(navigator.visits).toEqual([]);
  });

  it('sends an unconfirmed account a new code and opens /verify', async () => {
    const { vm, session, navigator, cooldowns, timers } = setup();
    session.reply('signIn', failure('email_not_confirmed', 'Email not confirmed'));
    vm.setEmail('ada@example.com');
    vm.setPassword('pw');

    await vm.submit();
    await settle();

    expect(session.callsOf('resendCode')).toEqual(['ada@example.com']);
    expect(cooldowns.secondsLeft('ada@example.com', timers.now())).toBe(60);
    expect(navigator.visits).toEqual([{ to: '/verify?email=ada%40example.com', replace: false }]);
  });

  it('carries the typed email to the reset-password link', () => {
    const { vm } = setup();
    expect(vm.resetPasswordHref).toBe('/reset-password');
    vm.setEmail('ada@example.com');
    expect(vm.resetPasswordHref).toBe('/reset-password?email=ada%40example.com');
  });

  it('init pre-fills the email once', () => {
    const { vm } = setup();
    vm.init('ada@example.com');
    vm.setEmail('bob@example.com');
    vm.init('ada@example.com');
    expect(vm.email).toBe('bob@example.com');
  });

  describe('with an authenticator app on the account', () => {
    /** The password is right but the account owes its second factor (auth-js: aal1, next aal2). */
    function passwordAccepted() {
      const t = setup();
      t.session.secondFactorOnSignIn = true;
      return t;
    }

    it('asks for the code after the password, and only an accepted code lets the person in', async () => {
      const { vm, navigator, profiles, analytics, twoFactor, flow } = passwordAccepted();
      flow.rememberReturnTo('/settings');
      vm.setEmail('ada@example.com');
      vm.setPassword('correct horse');
      await vm.submit();
      expect(vm.step).toBe('code');
      expect(navigator.visits).toEqual([]);
      expect(profiles.ensured).toEqual([]);
      expect(analytics.events).toEqual([]);
      expect(flow.inProgress).toBe(false);

      vm.setCode('123456');
      await vm.submitCode();
      expect(twoFactor.callsOf('verifySignIn')).toEqual(['123456']);
      expect(profiles.ensured).toEqual([null]);
      expect(analytics.events.map((e) => e.event)).toEqual(['Login']);
      expect(navigator.visits).toEqual([{ to: '/settings', replace: true }]);
    });

    it('says a wrong code is wrong, clears it, and stays on the code step', async () => {
      const { vm, navigator, profiles } = passwordAccepted();
      vm.setEmail('ada@example.com');
      vm.setPassword('correct horse');
      await vm.submit();
      vm.setCode('000000');
      await vm.submitCode();
      expect(vm.error).toBe("That code isn't right. Enter the 6-digit code your authenticator app shows now.");
      expect(vm.code).toBe('');
      expect(vm.step).toBe('code');
      expect(navigator.visits).toEqual([]);
      expect(profiles.ensured).toEqual([]);
    });

    it('asks for six digits before sending anything', async () => {
      const { vm, twoFactor } = passwordAccepted();
      vm.setEmail('ada@example.com');
      vm.setPassword('correct horse');
      await vm.submit();
      vm.setCode('12a3');
      await vm.submitCode();
      expect(vm.error).toBe('Enter the 6-digit code from your authenticator app.');
      expect(twoFactor.calls).toEqual([]);
    });

    it('opens on the code step when the session already owes the code, and can go back to the password form', async () => {
      const { vm, session } = setup();
      session.setState('second-factor', { id: 'user-1', email: 'ada@example.com', isSignup: false, metadata: {} });
      vm.init(null);
      expect(vm.step).toBe('code');
      await vm.useAnotherAccount();
      expect(session.status).toBe('signed-out');
      expect(vm.step).toBe('password');
    });
  });
});
