import {
  type Currency,
  DEFAULT_ROLE,
  PROFILE_ROLES,
  billingIntervalLabel,
  clampProgress,
  displayLimit,
  formatMoney,
  knownRole,
  moneyFromMajor,
  parseReferralCode,
  percentUsed,
  shareLink,
} from '@kiln/domain';
import { inject, injectable } from 'inversify';
import { makeAutoObservable, runInAction } from 'mobx';
import { ApiError, type ProfileApi, type ProfileDto, type Toasts, TYPES } from '../../app/ports';
import { type BrowserEnvironment, type Clipboard, type Logger, type Navigation, UI_TYPES } from '../../app/ui-ports';
import type { CurrentPlanDto, PlansApi, WireLimit } from '../../api/plans.api';
import type { ReferralsApi, ReferralStatsDto } from '../../api/referrals.api';
import type { UsageApi, UsageStatsDto } from '../../api/usage.api';
import { SubscriptionStore } from '../billing/subscription.store';

export const SETTINGS_TABS = ['profile', 'plan', 'referrals'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** `?tab=referrals` opens the referrals tab (SPEC §2); anything unknown opens the profile. */
export function tabFromQuery(value: string | null): SettingsTab {
  return (SETTINGS_TABS as readonly string[]).includes(value ?? '') ? (value as SettingsTab) : 'profile';
}

/** SPEC §2: Refer to Friends opens this in a new window. */
export const REFERRALS_TAB_PATH = '/settings?tab=referrals';

export type SectionStatus = 'loading' | 'ready' | 'error';
export type UsageTone = 'default' | 'warning' | 'destructive';

export interface UsageRow {
  readonly key: 'prompts' | 'private' | 'published';
  readonly label: string;
  readonly used: number;
  /** '5', '∞' (displayLimit). */
  readonly limit: string;
  readonly unlimited: boolean;
  /** 0–100, for the bar (SPEC §5 percentUsed, clamped). */
  readonly percent: number;
  readonly tone: UsageTone;
}

export interface CreditBreakdown {
  readonly total: number;
  readonly plan: number;
  readonly referral: number;
  readonly addOn: number;
}

/** Which of the SPEC §2 buttons the plan panel shows. */
export interface PlanButtons {
  /** Opens /pricing; hidden on limitless plans. */
  readonly viewPlans: boolean;
  /** Free plan. */
  readonly viewPricingPlans: boolean;
  /** Paid plans: starts a credit purchase. */
  readonly getMoreCredits: boolean;
  /** Needs a customer_id. */
  readonly manageSubscription: boolean;
  /** subscription_status active. */
  readonly earnMoreCredits: boolean;
  /** Otherwise: opens the referrals tab in a new window. */
  readonly referToFriends: boolean;
}

export interface ProfileForm {
  name: string;
  organization: string;
  role: string;
  dateOfBirth: string;
  preferredCurrency: Currency;
}

const WARNING_AT = 80;
const FULL_AT = 100;

function toneFor(percent: number): UsageTone {
  if (percent >= FULL_AT) return 'destructive';
  if (percent >= WARNING_AT) return 'warning';
  return 'default';
}

function usageRow(key: UsageRow['key'], label: string, used: number, limit: WireLimit, fromApi?: number): UsageRow {
  const unlimited = limit === 'unlimited' || limit === -1;
  const percent = clampProgress(fromApi ?? percentUsed(used, unlimited ? 'unlimited' : limit));
  return { key, label, used, limit: displayLimit(limit), unlimited, percent: unlimited ? 0 : percent, tone: unlimited ? 'default' : toneFor(percent) };
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
  usageStatus: SectionStatus = 'loading';
  referralsStatus: SectionStatus = 'loading';

  form: ProfileForm = { name: '', organization: '', role: DEFAULT_ROLE, dateOfBirth: '', preferredCurrency: 'USD' };
  /** The roles to choose from: the same list as sign-up's (the domain's PROFILE_ROLES). */
  readonly roles = PROFILE_ROLES;
  saving = false;
  saveError: string | null = null;

  constructor(
    @inject(TYPES.ProfileApi) private readonly profileApi: ProfileApi,
    @inject(TYPES.UsageApi) private readonly usageApi: UsageApi,
    @inject(TYPES.PlansApi) private readonly plansApi: PlansApi,
    @inject(TYPES.ReferralsApi) private readonly referralsApi: ReferralsApi,
    @inject(SubscriptionStore) private readonly store: SubscriptionStore,
    @inject(TYPES.Toasts) private readonly toasts: Toasts,
    @inject(UI_TYPES.Clipboard) private readonly clipboard: Clipboard,
    @inject(UI_TYPES.Navigation) private readonly navigation: Navigation,
    @inject(UI_TYPES.Environment) private readonly env: BrowserEnvironment,
    @inject(UI_TYPES.Logger) private readonly logger: Logger,
  ) {
    makeAutoObservable<
      SettingsVm,
      'profileApi' | 'usageApi' | 'plansApi' | 'referralsApi' | 'store' | 'toasts' | 'clipboard' | 'navigation' | 'env' | 'logger'
    >(this, {
      profileApi: false,
      usageApi: false,
      plansApi: false,
      referralsApi: false,
      store: false,
      toasts: false,
      clipboard: false,
      navigation: false,
      env: false,
      logger: false,
      roles: false,
    });
  }

  /** The profile, usage and current plan live in the shared SubscriptionStore (SPEC §3). */
  get profile(): ProfileDto | null {
    return this.store.profile;
  }

  get usage(): UsageStatsDto | null {
    return this.store.usage;
  }

  get currentPlan(): CurrentPlanDto | null {
    return this.store.currentPlan;
  }

  selectTab(tab: SettingsTab): void {
    this.tab = tab;
  }

  /** Loads every section side by side; a failing section is logged and offers a retry. */
  async load(): Promise<void> {
    await Promise.all([this.loadProfile(), this.loadUsage(), this.loadReferrals()]);
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

  /** Usage stats and the current plan: the plan & usage tab needs both. */
  async loadUsage(): Promise<void> {
    this.usageStatus = 'loading';
    try {
      const [usage, currentPlan] = await Promise.all([this.usageApi.stats(), this.plansApi.current()]);
      runInAction(() => {
        this.store.setUsage(usage);
        this.store.setCurrentPlan(currentPlan);
        this.usageStatus = 'ready';
      });
    } catch (error) {
      this.logger.error('Error loading subscription data', error);
      runInAction(() => (this.usageStatus = 'error'));
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

  // ── Plan & usage ────────────────────────────────────────────────────────────

  /** The plan id the API resolved (unknown ids are free, SPEC §4), else the profile's. */
  get planId(): string {
    return this.currentPlan?.id ?? this.profile?.subscription_plan ?? 'free';
  }

  get isFreePlan(): boolean {
    return this.planId === 'free';
  }

  get planName(): string {
    return this.currentPlan?.name ?? 'Free';
  }

  /** '$25 / month', '₹24,000 / year', '$0 / month'. */
  get planPrice(): string {
    const plan = this.currentPlan;
    if (plan === null) return '';
    const money = moneyFromMajor(plan.price, plan.currency);
    return money.ok ? `${formatMoney(money.value)} / ${billingIntervalLabel(plan.billing_interval)}` : '';
  }

  get subscriptionActive(): boolean {
    return this.profile?.subscription_status === 'active';
  }

  /** The end of the current allowance cycle, ISO text (the view formats it). */
  get cycleEnd(): string | null {
    return this.usage?.cycle_end ?? this.profile?.billing_cycle_end_date ?? null;
  }

  get buttons(): PlanButtons {
    const limitless = this.usage?.is_limitless_plan ?? false;
    const customerId = this.profile?.customer_id ?? '';
    return {
      viewPlans: !limitless,
      viewPricingPlans: this.isFreePlan,
      getMoreCredits: !this.isFreePlan,
      manageSubscription: customerId.trim() !== '',
      earnMoreCredits: this.subscriptionActive,
      referToFriends: !this.subscriptionActive,
    };
  }

  get usageRows(): readonly UsageRow[] {
    const u = this.usage;
    if (u === null) return [];
    return [
      usageRow('prompts', 'Prompts this cycle', u.prompts_used, u.is_unlimited_prompts ? 'unlimited' : u.prompts_total, u.prompts_percent_used),
      usageRow(
        'private',
        'Private projects',
        u.private_projects_count,
        u.is_unlimited_private_projects ? 'unlimited' : u.private_projects_limit,
        u.private_projects_percent_used,
      ),
      usageRow(
        'published',
        'Published projects',
        u.published_projects_count,
        u.is_unlimited_published_projects ? 'unlimited' : u.published_projects_limit,
        u.published_projects_percent_used,
      ),
    ];
  }

  /** SPEC §9 total credits remaining = plan + referral + add-on, as the API computed it. */
  get credits(): CreditBreakdown | null {
    const u = this.usage;
    if (u === null) return null;
    return { total: u.credits_remaining, plan: u.credits_from_plan, referral: u.credits_from_referrals, addOn: u.credits_from_add_ons };
  }

  /** Nothing left to prompt with on a metered plan: the credit limit is reached. */
  get outOfCredits(): boolean {
    const u = this.usage;
    return u !== null && !u.is_unlimited_prompts && u.credits_remaining < 1;
  }

  /** Refer to Friends: the referrals tab in a new window (SPEC §2). */
  referToFriends(): void {
    this.navigation.openInNewWindow(REFERRALS_TAB_PATH);
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
