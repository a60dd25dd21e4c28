import {
  type Clock,
  type Currency,
  type Profile,
  type ProfileNotFound,
  type ProfileRepository,
  type Result,
  err,
  ok,
  profileNotFound,
} from '@kiln/domain';

/** The details a user may edit on their own profile (plan, credits, referral fields are not among them). */
export interface ProfileDetails {
  readonly name?: string;
  readonly dateOfBirth?: string | null;
  readonly organization?: string | null;
  readonly role?: string;
  readonly preferredCurrency?: Currency;
}

/**
 * Changes the user-editable details of a profile. An API-side use case because the domain has
 * none for it yet (it belongs in libs/domain/src/profiles; see the report of issue 3).
 */
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
