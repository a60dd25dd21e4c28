import type { Clock } from '../shared/clock.port.js';
import type { Currency } from '../shared/money.js';
import { type Result, err, ok } from '../shared/result.js';
import type { Profile } from './profile.entity.js';
import { type ProfileNotFound, profileNotFound } from './profile.errors.js';
import type { ProfileRepository } from './profile-repository.port.js';

/** The details a user may edit on their own profile (plan, credits, referral fields are not among them). */
export interface ProfileDetails {
  readonly name?: string;
  readonly dateOfBirth?: string | null;
  readonly organization?: string | null;
  readonly role?: string;
  readonly preferredCurrency?: Currency;
}

/** Changes the user-editable details of a profile; everything else stays as it is. */
export class UpdateProfileDetails {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly clock: Clock,
  ) {}

  async execute(input: { readonly userId: string; readonly details: ProfileDetails }): Promise<Result<Profile, ProfileNotFound>> {
    const profile = await this.profiles.findById(input.userId);
    if (!profile) return err(profileNotFound(input.userId));
    const changes = Object.fromEntries(Object.entries(input.details).filter(([, value]) => value !== undefined)) as ProfileDetails;
    const updated: Profile = { ...profile, ...changes, updatedAt: this.clock.now() };
    await this.profiles.update(updated);
    return ok((await this.profiles.findById(profile.id)) ?? updated);
  }
}
