import { describe, expect, it } from '@jest/globals';
import { MemorySavedPrompts, RecordingNavigator } from '../../testing/auth-fakes';
import { ConfirmVm } from './confirm.vm';
import { GetStartedVm } from './get-started.vm';

describe('ConfirmVm', () => {
  it('links to /verify for the address', () => {
    const vm = new ConfirmVm(new RecordingNavigator());
    vm.init({ email: 'ada@example.com', token: null, type: null });
    expect(vm.verifyHref).toBe('/verify?email=ada%40example.com');
  });

  it('forwards a link that carries the code to /verify, which submits it', () => {
    const navigator = new RecordingNavigator();
    const vm = new ConfirmVm(navigator);
    vm.init({ email: 'ada@example.com', token: '123456', type: 'magiclink' });
    expect(navigator.visits).toEqual([{ to: '/verify?email=ada%40example.com&code=123456&type=email', replace: true }]);
  });
});

describe('GetStartedVm', () => {
  it("shows the landing prompt saved as 'home' and keeps it", () => {
    const prompts = new MemorySavedPrompts();
    const vm = new GetStartedVm(prompts);
    expect(vm.landingPrompt).toBeNull();
    prompts.set('home', 'A recipe app with a shopping list');
    expect(vm.landingPrompt).toBe('A recipe app with a shopping list');
    expect(prompts.get('home')).toBe('A recipe app with a shopping list');
  });
});
