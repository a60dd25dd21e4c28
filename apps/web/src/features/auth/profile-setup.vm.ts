import { PROFILE_ROLES } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { type Navigator, type ProfileApi, TYPES } from '../../app/ports';
import { PostSignInFlow } from './post-sign-in.flow';

/** The roles to choose from: the domain's list, the same in Settings and accepted by the API. */
export const ROLES: readonly { readonly value: string; readonly label: string }[] = PROFILE_ROLES;
export const NAME_MAX = 200;
export const ORGANIZATION_MAX = 200;

/** /profile-setup: name, organization and role after sign-up (PATCH /api/profile). */
@injectable()
export class ProfileSetupVm {
  name = '';
  organization = '';
  role = 'other';
  loading = false;
  saving = false;
  submitted = false;
  error: string | null = null;
  /** The pre-fill in flight: a Continue pressed before it lands waits for it instead of being lost. */
  private pendingLoad: Promise<void> | null = null;

  constructor(
    @inject(TYPES.ProfileApi) private readonly profiles: ProfileApi,
    @inject(TYPES.Navigator) private readonly navigator: Navigator,
    @inject(PostSignInFlow) private readonly flow: PostSignInFlow,
  ) {
    makeAutoObservable<ProfileSetupVm, 'profiles' | 'navigator' | 'flow' | 'pendingLoad'>(
      this,
      { profiles: false, navigator: false, flow: false, pendingLoad: false },
      { autoBind: true },
    );
  }

  get nameError(): string | null {
    if (!this.submitted) return null;
    if (this.name.trim() === '') return 'Enter your name.';
    return this.name.trim().length > NAME_MAX ? `Use at most ${NAME_MAX} characters.` : null;
  }

  get organizationError(): string | null {
    return this.submitted && this.organization.trim().length > ORGANIZATION_MAX ? `Use at most ${ORGANIZATION_MAX} characters.` : null;
  }

  /** Pre-fills from the profile (the name comes from sign-up). */
  load(): Promise<void> {
    this.pendingLoad = this.loadProfile();
    return this.pendingLoad;
  }

  private async loadProfile(): Promise<void> {
    this.loading = true;
    try {
      const profile = await this.profiles.get();
      runInAction(() => {
        if (this.name === '') this.name = profile.name;
        if (this.organization === '') this.organization = profile.organization ?? '';
        if (ROLES.some((r) => r.value === profile.role)) this.role = profile.role;
      });
    } catch {
      // Empty fields are fine: the visitor can still fill them in or skip.
    } finally {
      runInAction(() => {
        this.loading = false;
      });
    }
  }

  setName(value: string): void {
    this.name = value;
  }

  setOrganization(value: string): void {
    this.organization = value;
  }

  setRole(value: string): void {
    this.role = value;
  }

  async save(): Promise<void> {
    // Pressed while the profile is still loading: its name arrives first, then this is judged.
    if (this.pendingLoad !== null) await this.pendingLoad;
    this.submitted = true;
    this.error = null;
    if (this.saving || this.nameError !== null || this.organizationError !== null) return;
    this.saving = true;
    try {
      await this.profiles.update({ name: this.name.trim(), organization: this.organization.trim() || null, role: this.role });
      runInAction(() => this.navigator.navigate(this.flow.takeReturnTo(), { replace: true }));
    } catch (error) {
      runInAction(() => {
        this.error = error instanceof Error ? error.message : 'Could not save your profile. Please try again.';
      });
    } finally {
      runInAction(() => {
        this.saving = false;
      });
    }
  }

  skip(): void {
    this.navigator.navigate(this.flow.takeReturnTo(), { replace: true });
  }
}
