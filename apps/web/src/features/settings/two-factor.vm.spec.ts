import { describe, expect, it } from '@jest/globals';
import { ENROLMENT, ScriptedTwoFactor, totpFactor } from '../../testing/two-factor-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { TwoFactorVm } from './two-factor.vm';

function setup() {
  const twoFactor = new ScriptedTwoFactor();
  const toasts = new FakeToasts();
  return { twoFactor, toasts, vm: new TwoFactorVm(twoFactor, toasts) };
}

describe('TwoFactorVm', () => {
  it('loads the apps set up; none means off', async () => {
    const { vm, twoFactor } = setup();
    expect(vm.status).toBe('loading');
    await vm.load();
    expect(vm.status).toBe('ready');
    expect(vm.enabled).toBe(false);
    twoFactor.factors = [totpFactor('f1')];
    await vm.load();
    expect(vm.enabled).toBe(true);
  });

  it('shows an error state when the list cannot be read', async () => {
    const { vm, twoFactor } = setup();
    twoFactor.failNext.list = { code: 'network_failure', message: 'down' };
    await vm.load();
    expect(vm.status).toBe('error');
  });

  it('sets up an app: the QR code and key, then a first code turns it on', async () => {
    const { vm, twoFactor, toasts } = setup();
    await vm.load();
    await vm.start();
    expect(vm.enrolment).toEqual(ENROLMENT);
    vm.setCode('Code: 123 456');
    expect(vm.code).toBe('123456');
    expect(vm.codeDigits).toEqual(['1', '2', '3', '4', '5', '6']);
    await vm.confirm();
    expect(twoFactor.callsOf('confirmEnrolment')).toEqual([{ factorId: ENROLMENT.factorId, code: '123456' }]);
    expect(vm.enrolment).toBeNull();
    expect(vm.enabled).toBe(true);
    expect(toasts.shown.map((t) => t.title)).toEqual(['Two-factor authentication is on']);
  });

  it('keeps the set-up open with a clear message when the code is wrong or incomplete', async () => {
    const { vm, twoFactor } = setup();
    await vm.start();
    vm.setCode('12');
    await vm.confirm();
    expect(vm.error).toBe('Enter the 6-digit code from your authenticator app.');
    expect(twoFactor.callsOf('confirmEnrolment')).toEqual([]);
    vm.setCode('654321');
    await vm.confirm();
    expect(vm.error).toBe("That code isn't right. Enter the 6-digit code your authenticator app shows now.");
    expect(vm.enrolment).toEqual(ENROLMENT);
    expect(vm.code).toBe('');
  });

  it('cancelling removes the unconfirmed factor', async () => {
    const { vm, twoFactor } = setup();
    await vm.start();
    await vm.cancel();
    expect(vm.enrolment).toBeNull();
    expect(twoFactor.callsOf('remove')).toEqual([ENROLMENT.factorId]);
  });

  it('removes an app and reports a refusal in words', async () => {
    const { vm, twoFactor, toasts } = setup();
    twoFactor.factors = [totpFactor('f1'), totpFactor('f2')];
    await vm.load();
    twoFactor.failNext.remove = { code: 'insufficient_aal', message: 'AAL2 required to unenroll verified factor' };
    await vm.remove('f1');
    expect(vm.error).toMatch(/authenticator app first/);
    expect(vm.factors.map((f) => f.id)).toEqual(['f1', 'f2']);
    await vm.remove('f1');
    expect(vm.factors.map((f) => f.id)).toEqual(['f2']);
    expect(toasts.shown.map((t) => t.title)).toEqual(['Authenticator app removed']);
  });
});
