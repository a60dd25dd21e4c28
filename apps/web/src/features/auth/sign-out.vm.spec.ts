import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { Navigator, SessionService } from '../../app/ports';
import { SignOutVm } from './sign-out.vm';

function fakes() {
  const calls: string[] = [];
  let release: () => void = () => undefined;
  const session = {
    signOut: () =>
      new Promise<void>((resolve) => {
        calls.push('signOut');
        release = resolve;
      }),
  } as unknown as SessionService;
  const navigator: Navigator = { navigate: (to) => calls.push(`navigate ${to}`) };
  return { calls, session, navigator, release: () => release() };
}

describe('SignOutVm', () => {
  it('signs out once, even when clicked twice, then goes home', async () => {
    const f = fakes();
    const vm = new SignOutVm(f.session, f.navigator);
    const first = vm.signOut();
    const second = vm.signOut();
    expect(vm.signingOut).toBe(true);
    f.release();
    await Promise.all([first, second]);
    expect(f.calls).toEqual(['signOut', 'navigate /']);
    expect(vm.signingOut).toBe(false);
  });
});
