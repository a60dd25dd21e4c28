import { describe, expect, it } from '@jest/globals';
import { DAY_MS } from '../testing/fixed-clock.js';
import { createTestKit, signUp } from '../testing/test-kit.js';
import { UpdateProfileDetails } from './update-profile-details.use-case.js';

describe('UpdateProfileDetails', () => {
  it('changes only the given details and stamps updatedAt', async () => {
    const kit = createTestKit();
    const { profile } = await signUp(kit, 'ana', { fullName: 'Ana' });
    kit.clock.advance(DAY_MS);
    const r = await new UpdateProfileDetails(kit.profiles, kit.clock).execute({
      userId: 'ana',
      details: { organization: 'Acme', name: undefined },
    });
    expect(r.ok && r.value).toMatchObject({ name: 'Ana', organization: 'Acme', subscriptionPlan: 'free', referralCode: profile.referralCode });
    expect(r.ok && r.value.updatedAt).toEqual(kit.clock.now());
  });

  it('answers PROFILES.NOT_FOUND for an unknown user', async () => {
    const kit = createTestKit();
    const r = await new UpdateProfileDetails(kit.profiles, kit.clock).execute({ userId: 'ghost', details: { name: 'x' } });
    expect(!r.ok && r.error.code).toBe('PROFILES.NOT_FOUND');
  });
});
