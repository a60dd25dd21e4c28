import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { describe, expect, it } from '@jest/globals';
import { STORAGE_KEYS } from '../../app/ports';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { failure, FakeProfileApi, ManualTimers, RecordingNavigator, ScriptedSession, settle } from '../../testing/auth-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from '../referral-capture/referral-capture';
import { CodeCooldowns } from './code-cooldown';
import { PostSignInFlow } from './post-sign-in.flow';
import { extractCode, VerifyVm } from './verify.vm';

function setup(initial: Record<string, string> = {}) {
  const session = new ScriptedSession('signed-out');
  const navigator = new RecordingNavigator();
  const timers = new ManualTimers();
  const storage = new InMemoryKeyValueStorage(initial);
  const toasts = new FakeToasts();
  const profiles = new FakeProfileApi();
  const flow = new PostSignInFlow(profiles, storage, new ReferralCapture(storage, toasts), new StoredSavedPrompts(storage));
  const cooldowns = new CodeCooldowns(timers);
  const vm = new VerifyVm(session, navigator, timers, flow, cooldowns);
  return { session, navigator, timers, storage, toasts, profiles, flow, cooldowns, vm };
}

describe('extractCode', () => {
  it.each([
    ['123456', '123456'],
    ['12 34 56', '123456'],
    ['123-456', '123456'],
    ['Your code is 654321.', '654321'],
    ['654321 is your Kiln confirmation code', '654321'],
    ['12', '12'],
    ['abc', ''],
    ['1234567890', '123456'],
    ['Code: 123456, expires in 10 minutes', '123456'],
  ])('%p → %p', (input, expected) => {
    expect(extractCode(input)).toBe(expected);
  });
});

describe('VerifyVm', () => {
  it('reads email and type from the query; without an email it asks for one', () => {
    const { vm } = setup();
    vm.init({ email: 'ada@example.com' });
    expect([vm.email, vm.type, vm.askEmail]).toEqual(['ada@example.com', 'signup', false]);

    const other = setup().vm;
    other.init({ email: null, type: 'email' });
    expect([other.email, other.type, other.askEmail]).toEqual(['', 'email', true]);
  });

  it('keeps digits only, six at most, and shows them in six boxes', () => {
    const { vm, session } = setup();
    vm.init({ email: null });
    vm.setCode('1a2 3');
    expect(vm.code).toBe('123');
    expect(vm.digits).toEqual(['1', '2', '3', '', '', '']);
    expect(vm.isComplete).toBe(false);
    expect(session.calls).toEqual([]);
  });

  it('refuses to submit an incomplete code', async () => {
    const { vm, session } = setup();
    vm.init({ email: 'ada@example.com' });
    vm.setCode('123');
    await vm.submit();
    expect(vm.error).toBe('Enter the 6-digit code from your email.');
    expect(session.calls).toEqual([]);
  });

  it('a pasted code submits itself, ensures the profile and goes to /profile-setup after sign-up', async () => {
    const { vm, session, navigator, profiles } = setup({ [STORAGE_KEYS.referralCode]: 'K7QX2M' });
    vm.init({ email: 'ada@example.com' });

    vm.setCode('Your code: 482 913');
    await settle();

    expect(session.callsOf('verifyCode')).toEqual([{ email: 'ada@example.com', code: '482913', type: 'signup' }]);
    expect(profiles.ensured).toEqual(['K7QX2M']);
    expect(navigator.visits).toEqual([{ to: '/profile-setup', replace: true }]);
    expect(vm.verified).toBe(true);
  });

  it('a sign-in code (type=email) returns to the remembered path', async () => {
    const { vm, navigator, flow } = setup();
    flow.rememberReturnTo('/settings');
    vm.init({ email: 'ada@example.com', type: 'email' });
    vm.setCode('482913');
    await settle();
    expect(navigator.last).toBe('/settings');
  });

  it('explains a wrong or expired code in plain words and clears the boxes', async () => {
    const { vm, session, navigator } = setup();
    session.reply('verifyCode', failure('otp_expired', 'Token has expired or is invalid'));
    vm.init({ email: 'ada@example.com' });

    vm.setCode('000000');
    await settle();

    expect(vm.error).toBe('That code is wrong or has expired. Check the latest email from us, or send a new code.');
    expect(vm.code).toBe('');
    expect(vm.submitting).toBe(false);
    expect(navigator.visits).toEqual([]);
  });

  it('submits once even if asked twice', async () => {
    const { vm, session } = setup();
    vm.init({ email: 'ada@example.com' });
    vm.setCode('482913');
    void vm.submit();
    await settle();
    expect(session.callsOf('verifyCode')).toHaveLength(1);
  });

  describe('resend cooldown', () => {
    it('counts down 60 s from the sign-up that sent the first code', () => {
      const { vm, cooldowns, timers } = setup();
      cooldowns.markSent('ada@example.com');
      vm.init({ email: 'ada@example.com' });
      vm.start();

      expect(vm.resendSecondsLeft).toBe(60);
      expect(vm.canResend).toBe(false);
      expect(vm.resendLabel).toBe('Resend code in 60s');

      timers.advance(1_000);
      expect(vm.resendLabel).toBe('Resend code in 59s');

      timers.advance(59_000);
      expect(vm.resendSecondsLeft).toBe(0);
      expect(vm.canResend).toBe(true);
      expect(vm.resendLabel).toBe('Resend code');
    });

    it('allows a resend at once when no code was sent in this session', () => {
      const { vm } = setup();
      vm.init({ email: 'ada@example.com' });
      expect(vm.canResend).toBe(true);
    });

    it('a resend mails a new code and restarts the countdown', async () => {
      const { vm, session, timers } = setup();
      vm.init({ email: 'ada@example.com' });
      vm.start();

      await vm.resend();

      expect(session.callsOf('resendCode')).toEqual(['ada@example.com']);
      expect(vm.notice).toBe('We sent a new code to ada@example.com.');
      expect(vm.resendSecondsLeft).toBe(60);
      await vm.resend();
      expect(session.callsOf('resendCode')).toHaveLength(1);
      timers.advance(60_000);
      expect(vm.canResend).toBe(true);
    });

    it("follows the server's wait when it refuses a resend (429)", async () => {
      const { vm, session } = setup();
      session.reply('resendCode', failure('over_email_send_rate_limit', 'For security purposes, you can only request this after 42 seconds.'));
      vm.init({ email: 'ada@example.com' });
      vm.start();

      await vm.resend();

      expect(vm.resendSecondsLeft).toBe(42);
      expect(vm.error).toBe('We just sent you an email. You can ask for another in 42 seconds.');
    });

    it('stops ticking when disposed', () => {
      const { vm, timers } = setup();
      vm.start();
      expect(timers.running).toBe(1);
      vm.start();
      expect(timers.running).toBe(1);
      vm.dispose();
      expect(timers.running).toBe(0);
    });
  });
});
