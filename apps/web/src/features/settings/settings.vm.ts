import { type Currency, DEFAULT_ROLE, PROFILE_ROLES, knownRole, parseReferralCode, shareLink } from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, type ProfileApi, type ProfileDto, type Toasts, TYPES } from '../../app/ports';
import { type BrowserEnvironment, type Clipboard, type Logger, UI_TYPES } from '../../app/ui-ports';
import type { ReferralsApi, ReferralStatsDto } from '../../api/referrals.api';
import { PlanUsageVm, type SectionStatus } from '../billing/plan-usage.vm';
import { SubscriptionStore } from '../billing/subscription.store';

export const SETTINGS_TABS = ['profile', 'plan', 'referrals'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** `?tab=referrals` opens the referrals tab (SPEC §2); anything unknown opens the profile. */
export function tabFromQuery(value: string | null): SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '') ? (value as SettingsTab) : 'profile';
}

export type { SectionStatus } from '../billing/plan-usage.vm';

export interface ProfileForm {
  name: string;
  organization: string;
  role: string;
  dateOfBirth: string;
  preferredCurrency: Currency;
}

function formFrom(profile: ProfileDto): ProfileForm {
  return {
    name: profile.name,
    organization: profile.organization ?? '',
    // Sign-up's list; a role typed before there was one reads as 'Other'.
    role: knownRole(profile.role),
    dateOfBirth: profile.date_of_birth ?? '',
    preferredCurrency: profile.preferred_currency === 'INR' ? 'INR' : 'USD',
  };
}

/** /settings: profile, plan & usage, referrals. */
@injectable()
export class SettingsVm {
  tab: SettingsTab = 'profile';

  referrals: ReferralStatsDto | null = null;

  profileStatus: SectionStatus = 'loading';
  referralsStatus: SectionStatus = 'loading';

  form: ProfileForm = { name: '', organization: '', role: DEFAULT_ROLE, dateOfBirth: '', preferredCurrency: 'USD' };
  /** The roles to choose from: the same list as sign-up's (the domain's PROFILE_ROLES). */
  readonly roles = PROFILE_ROLES;
  saving = false;
  saveError: string | null = null;

  constructor(
    @inject(TYPES.ProfileApi) private readonly profileApi: ProfileApi,
    @inject(TYPES.ReferralsApi) private readonly referralsApi: ReferralsApi,
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    /** The plan & usage tab: the same panel the builder shows. */
    @inject(PlanUsageVm) readonly plan: PlanUsageVm,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Clipboard) private readonly clipboard: Clipboard,
    @inject(UI_TYPES.Environment) private readonly env: BrowserEnvironment,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<SettingsVm, 'profileApi' | 'referralsApi' | 'store' | 'toasts' | 'clipboard' | 'env' | 'logger'>(this, {
      profileApi: false,
      referralsApi: false,
      store: false,
      plan: false,
      toasts: false,
      clipboard: false,
      env: false,
      logger: false,
      roles: false,
    });
  }

  /** The profile lives in the shared SubscriptionStore (SPEC §3). */
  get profile(): ProfileDto | null {
    return this.store.profile;
  }

  selectTab(tab: SettingsTab): void {
    this.tab = tab;
  }

  /** Loads every section side by side; a failing section is logged and offers a retry. */
  async load(): Promise<void> {
    await Promise.all([this.loadProfile(), this.plan.load(), this.loadReferrals()]);
  }

  async loadProfile(): Promise<void> {
    this.profileStatus = 'loading';
    try {
      const profile = await this.profileApi.get();
      runInAction(() => {
        this.store.setProfile(profile);
        this.form = formFrom(profile);
        this.profileStatus = 'ready';
      });
    } catch (error) {
      this.logger.error('Error loading profile', error);
      runInAction(() => (this.profileStatus = 'error'));
    }
  }

  async loadReferrals(): Promise<void> {
    this.referralsStatus = 'loading';
    try {
      const referrals = await this.referralsApi.stats();
      runInAction(() => {
        this.referrals = referrals;
        this.referralsStatus = 'ready';
      });
    } catch (error) {
      this.logger.error('Error loading referrals', error);
      runInAction(() => (this.referralsStatus = 'error'));
    }
  }

  // ── Referrals ───────────────────────────────────────────────────────────────

  /** SPEC §2: this site's origin plus ?ref=code; the API's link when the code is not one of ours. */
  get shareLink(): string | null {
    const r = this.referrals;
    if (r === null) return null;
    const code = parseReferralCode(r.referral_code);
    return code.ok ? shareLink(this.env.origin, code.value) : r.share_link;
  }

  async copyShareLink(): Promise<void> {
    const link = this.shareLink;
    if (link === null) return;
    try {
      await this.clipboard.writeText(link);
      this.toasts.show({ title: 'Link Copied!', description: 'Referral link copied to clipboard', variant: 'success' });
    } catch {
      this.toasts.show({ title: 'Copy Failed', description: 'Please copy the link manually', variant: 'error' });
    }
  }

  // ── Profile ─────────────────────────────────────────────────────────────────

  setField<K extends keyof ProfileForm>(field: K, value: ProfileForm[K]): void {
    this.form = { ...this.form, [field]: value };
    this.saveError = null;
  }

  get isDirty(): boolean {
    if (this.profile === null) return false;
    const saved = formFrom(this.profile);
    return (Object.keys(saved) as (keyof ProfileForm)[]).some((k) => saved[k] !== this.form[k]);
  }

  get canSave(): boolean {
    return this.isDirty && !this.saving;
  }

  async saveProfile(): Promise<void> {
    if (!this.canSave) return;
    this.saving = true;
    this.saveError = null;
    const f = this.form;
    try {
      const profile = await this.profileApi.update({
        name: f.name.trim(),
        organization: f.organization.trim() === '' ? null : f.organization.trim(),
        role: knownRole(f.role),
        date_of_birth: f.dateOfBirth === '' ? null : f.dateOfBirth,
        preferred_currency: f.preferredCurrency,
      });
      runInAction(() => {
        this.store.setProfile(profile);
        this.form = formFrom(profile);
        this.saving = false;
      });
      this.toasts.show({ title: 'Profile updated', description: 'Your changes have been saved.', variant: 'success' });
    } catch (error) {
      runInAction(() => {
        this.saving = false;
        this.saveError = error instanceof ApiError || error instanceof Error ? error.message : 'Request failed';
      });
    }
  }

  resetForm(): void {
    if (this.profile !== null) this.form = formFrom(this.profile);
    this.saveError = null;
  }
}
