import { StoredSavedPrompts } from '../../storage/saved-prompts';
import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../../app/ports';
import { InMemoryKeyValueStorage } from '../../storage/memory-storage';
import { FakeProfileApi, profileDto, RecordingNavigator } from '../../testing/auth-fakes';
import { FakeToasts } from '../../testing/ui-fakes';
import { ReferralCapture } from '../referral-capture/referral-capture';
import { PostSignInFlow } from './post-sign-in.flow';
import { ProfileSetupVm } from './profile-setup.vm';

function setup() {
  const profiles = new FakeProfileApi();
  const navigator = new RecordingNavigator();
  const storage = new InMemoryKeyValueStorage();
  const flow = new PostSignInFlow(profiles, storage, new ReferralCapture(storage, new FakeToasts()), new StoredSavedPrompts(storage));
  return { profiles, navigator, flow, vm: new ProfileSetupVm(profiles, navigator, flow) };
}

describe('ProfileSetupVm', () => {
  it('pre-fills from the profile', async () => {
    const { vm, profiles } = setup();
    profiles.profile = profileDto({ name: 'Ada Lovelace', organization: 'Analytical Engines', role: 'developer' });
    await vm.load();
    expect([vm.name, vm.organization, vm.role]).toEqual(['Ada Lovelace', 'Analytical Engines', 'developer']);
  });

  it('saves name, organization (empty → null) and role, then goes to the remembered path', async () => {
    const { vm, profiles, navigator, flow } = setup();
    flow.rememberReturnTo('/settings');
    vm.setName('  Ada  ');
    vm.setOrganization('  ');
    vm.setRole('founder');

    await vm.save();

    expect(profiles.updates).toEqual([{ name: 'Ada', organization: null, role: 'founder' }]);
    expect(navigator.visits).toEqual([{ to: '/settings', replace: true }]);
  });

  it('a Continue pressed before the profile has loaded waits for it and saves the loaded name (the click is not lost)', async () => {
    const { vm, profiles, navigator } = setup();
    profiles.profile = profileDto({ name: 'Ada Lovelace' });
    const loading = vm.load();
    const saving = vm.save(); // pressed at once, while the name field is still empty
    await Promise.all([loading, saving]);
    expect(vm.nameError).toBeNull();
    expect(profiles.updates).toEqual([{ name: 'Ada Lovelace', organization: null, role: 'other' }]);
    expect(navigator.visits).toHaveLength(1);
  });

  it('needs a name', async () => {
    const { vm, profiles } = setup();
    await vm.save();
    expect(vm.nameError).toBe('Enter your name.');
    expect(profiles.updates).toEqual([]);
  });

  it("shows the API's detail when saving fails", async () => {
    const { vm, profiles, navigator } = setup();
    profiles.failUpdate = new ApiError('name: must be shorter than or equal to 200 characters', 400, 'VALIDATION_FAILED', null);
    vm.setName('Ada');
    await vm.save();
    expect(vm.error).toBe('name: must be shorter than or equal to 200 characters');
    expect(vm.saving).toBe(false);
    expect(navigator.visits).toEqual([]);
  });

  it('skip goes on without saving', () => {
    const { vm, profiles, navigator } = setup();
    vm.skip();
    expect(profiles.updates).toEqual([]);
    expect(navigator.last).toBe('/');
  });
});
