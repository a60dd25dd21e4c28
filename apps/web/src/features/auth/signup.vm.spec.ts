import { describe, expect, it } from '@jest/globals';
import { failure, ManualTimers, RecordingAnalytics, RecordingNavigator, ScriptedSession } from '../../testing/auth-fakes';
import { CodeCooldowns } from './code-cooldown';
import { SignupVm } from './signup.vm';

function setup() {
  const session = new ScriptedSession('signed-out');
  const navigator = new RecordingNavigator();
  const analytics = new RecordingAnalytics();
  const timers = new ManualTimers();
  const cooldowns = new CodeCooldowns(timers);
  const vm = new SignupVm(session, navigator, analytics, cooldowns);
  return { session, navigator, analytics, timers, cooldowns, vm };
}

describe('SignupVm', () => {
  it('shows the password rule live, as the visitor types', () => {
    const { vm } = setup();
    expect(vm.passwordRules).toEqual([{ label: 'At least 8 characters', met: false }]);
    vm.setPassword('12345678');
    expect(vm.passwordRules).toEqual([{ label: 'At least 8 characters', met: true }]);
  });

  it('counts characters, not UTF-16 units (the domain rule)', () => {
    const { vm } = setup();
    vm.setPassword('🔥🔥🔥🔥🔥🔥🔥');
    expect(vm.passwordRules[0]?.met).toBe(false);
  });

  it('refuses an invalid email or a short password before calling the server', async () => {
    const { vm, session } = setup();
    vm.setEmail('ada@');
    vm.setPassword('short');
    await vm.submit();
    expect(vm.emailError).not.toBeNull();
    expect(vm.passwordError).toBe('Your password needs at least 8 characters.');
    expect(session.calls).toEqual([]);
  });

  it('signs up with the name, starts the resend countdown, tracks Signup and opens /verify', async () => {
    const { vm, session, navigator, analytics, cooldowns, timers } = setup();
    vm.setName('Ada Lovelace');
    vm.setEmail('ada@example.com ');
    vm.setPassword('correct horse');

    await vm.submit();

    expect(session.callsOf('signUp')).toEqual([{ email: 'ada@example.com', password: 'correct horse', fullName: 'Ada Lovelace' }]);
    expect(cooldowns.secondsLeft('ada@example.com', timers.now())).toBe(60);
    expect(analytics.events.map((e) => e.event)).toEqual(['Signup']);
    expect(navigator.visits).toEqual([{ to: '/verify?email=ada%40example.com', replace: false }]);
  });

  it("shows the server's refusal in plain words", async () => {
    const { vm, session, navigator } = setup();
    session.reply('signUp', failure('weak_password', 'Password should be at least 8 characters.'));
    vm.setEmail('ada@example.com');
    vm.setPassword('12345678');
    await vm.submit();
    expect(vm.error).toBe('Choose a stronger password: at least 8 characters.');
    expect(vm.submitting).toBe(false);
    expect(navigator.visits).toEqual([]);
  });
});
