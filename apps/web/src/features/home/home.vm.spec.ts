import { describe, expect, it } from '@jest/globals';
import { autorun, isAction, isComputedProp, isObservableProp } from 'mobx';
import { STORAGE_KEYS, type SessionStatus } from '../../app/ports';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { RecordingNavigator } from '../../testing/auth-fakes';
import { FakeSession } from '../../testing/ui-fakes';
import { HomeVm } from './home.vm';

function setup(options: { stored?: unknown; status?: SessionStatus } = {}) {
  const storage = new InMemoryKeyValueStorage(
    options.stored === undefined ? {} : { [STORAGE_KEYS.savedPrompts]: JSON.stringify(options.stored) },
  );
  const navigator = new RecordingNavigator();
  const vm = new HomeVm(new StoredSavedPrompts(storage), new FakeSession(options.status ?? 'signed-out'), navigator);
  return { vm, storage, navigator };
}

const stored = (storage: InMemoryKeyValueStorage) => JSON.parse(storage.get(STORAGE_KEYS.savedPrompts) ?? 'null');

describe('HomeVm', () => {
  it('shows the "Start free" banner to visitors only: not to anyone signed in (free or Pro), nor while the session loads', () => {
    expect(setup({ status: 'signed-out' }).vm.showStartFreeBanner).toBe(true);
    expect(setup({ status: 'signed-in' }).vm.showStartFreeBanner).toBe(false);
    expect(setup({ status: 'loading' }).vm.showStartFreeBanner).toBe(false);
  });

  it('starts with an empty prompt that cannot be submitted', () => {
    const { vm, navigator, storage } = setup();

    expect(vm.prompt).toBe('');
    expect(vm.canSubmit).toBe(false);
    vm.submit();
    expect(navigator.visits).toEqual([]);
    expect(stored(storage)).toBeNull();
  });

  it('can submit once the prompt has text', () => {
    const { vm } = setup();

    vm.setPrompt('A habit tracker with streaks');

    expect(vm.prompt).toBe('A habit tracker with streaks');
    expect(vm.canSubmit).toBe(true);
  });

  it('keeps the prompt as typed but does not count whitespace as text', () => {
    const { vm } = setup();

    vm.setPrompt(' \n\t ');
    expect(vm.prompt).toBe(' \n\t ');
    expect(vm.canSubmit).toBe(false);

    vm.setPrompt('  a todo app  ');
    expect(vm.prompt).toBe('  a todo app  ');
    expect(vm.canSubmit).toBe(true);
  });

  it('an example idea fills the prompt', () => {
    const { vm } = setup();
    vm.useExample(vm.examples[0].prompt);
    expect(vm.prompt).toBe(vm.examples[0].prompt);
    expect(vm.canSubmit).toBe(true);
  });

  it("signed out: submitting saves the idea as the 'home' saved prompt and goes to /get-started", () => {
    const { vm, storage, navigator } = setup();
    vm.setPrompt('  a recipe finder  ');

    vm.submit();

    expect(stored(storage)).toEqual({ home: { prompt: 'a recipe finder' } });
    expect(navigator.last).toBe('/get-started');
  });

  it('signed in: submitting goes to a new project', () => {
    const { vm, storage, navigator } = setup({ status: 'signed-in' });
    vm.setPrompt('a blog');

    vm.submit();

    expect(stored(storage)).toEqual({ home: { prompt: 'a blog' } });
    expect(navigator.last).toBe('/creation/new');
  });

  it('signed in: "Set up step by step" starts a new project in the wizard, the idea (if any) kept as its draft', () => {
    const empty = setup({ status: 'signed-in' });
    empty.vm.startWizard();
    expect(stored(empty.storage)).toBeNull();
    expect(empty.navigator.last).toBe('/creation/new?wizard=1');
    const withIdea = setup({ status: 'signed-in' });
    withIdea.vm.setPrompt(' a bakery ');
    withIdea.vm.startWizard();
    expect(stored(withIdea.storage)).toEqual({ home: { prompt: 'a bakery' } });
    const out = setup({ status: 'signed-out' });
    out.vm.startWizard();
    expect(out.navigator.last).toBe('/get-started');
  });

  it('keeps the saved prompts of projects when saving the home one', () => {
    const { vm, storage } = setup({ stored: { p1: { prompt: 'project idea' } } });
    vm.setPrompt('home idea');
    vm.submit();
    expect(stored(storage)).toEqual({ p1: { prompt: 'project idea' }, home: { prompt: 'home idea' } });
  });

  it('restores the saved home prompt; its timestamp is dropped (SPEC §5) and not written back', () => {
    const { vm, storage } = setup({ stored: { home: { prompt: 'saved idea', timestamp: 1700000000000 } } });
    expect(vm.prompt).toBe('saved idea');

    vm.submit();

    expect(stored(storage)).toEqual({ home: { prompt: 'saved idea' } });
  });

  it('starts empty when the stored prompts are unreadable', () => {
    const storage = new InMemoryKeyValueStorage({ [STORAGE_KEYS.savedPrompts]: '{not json' });
    const vm = new HomeVm(new StoredSavedPrompts(storage), new FakeSession(), new RecordingNavigator());
    expect(vm.prompt).toBe('');
  });

  it('cannot submit again after the prompt is cleared', () => {
    const { vm } = setup();
    vm.setPrompt('a blog');

    vm.setPrompt('');

    expect(vm.canSubmit).toBe(false);
  });

  it('is observable: prompt is state, setPrompt an action, canSubmit computed', () => {
    const { vm } = setup();

    expect(isObservableProp(vm, 'prompt')).toBe(true);
    expect(isAction(vm.setPrompt)).toBe(true);
    expect(isComputedProp(vm, 'canSubmit')).toBe(true);
  });

  it('notifies observers only when canSubmit changes', () => {
    const { vm } = setup();
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
