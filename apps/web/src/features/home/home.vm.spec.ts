import { describe, expect, it } from '@jest/globals';
import { autorun, isAction, isComputedProp, isObservableProp } from 'mobx';
import { HomeVm } from './home.vm';

describe('HomeVm', () => {
  it('starts with an empty prompt that cannot be submitted', () => {
    const vm = new HomeVm();

    expect(vm.prompt).toBe('');
    expect(vm.canSubmit).toBe(false);
  });

  it('can submit once the prompt has text', () => {
    const vm = new HomeVm();

    vm.setPrompt('A habit tracker with streaks');

    expect(vm.prompt).toBe('A habit tracker with streaks');
    expect(vm.canSubmit).toBe(true);
  });

  it('keeps the prompt as typed but does not count whitespace as text', () => {
    const vm = new HomeVm();

    vm.setPrompt(' \n\t ');
    expect(vm.prompt).toBe(' \n\t ');
    expect(vm.canSubmit).toBe(false);

    vm.setPrompt('  a todo app  ');
    expect(vm.prompt).toBe('  a todo app  ');
    expect(vm.canSubmit).toBe(true);
  });

  it('cannot submit again after the prompt is cleared', () => {
    const vm = new HomeVm();
    vm.setPrompt('a blog');

    vm.setPrompt('');

    expect(vm.canSubmit).toBe(false);
  });

  it('is observable: prompt is state, setPrompt an action, canSubmit computed', () => {
    const vm = new HomeVm();

    expect(isObservableProp(vm, 'prompt')).toBe(true);
    expect(isAction(vm.setPrompt)).toBe(true);
    expect(isComputedProp(vm, 'canSubmit')).toBe(true);
  });

  it('notifies observers only when canSubmit changes', () => {
    const vm = new HomeVm();
    const seen: boolean[] = [];
    const dispose = autorun(() => {
      seen.push(vm.canSubmit);
    });

    vm.setPrompt('a');
    vm.setPrompt('ab');
    vm.setPrompt('');
    dispose();

    expect(seen).toEqual([false, true, false]);
  });
});
